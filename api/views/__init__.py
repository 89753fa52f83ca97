"""Thin views: validate, call one service (or the rules engine), answer."""
