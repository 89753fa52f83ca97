"""Writes: keyword-only service functions named ``<entity>_<action>``, one transaction each."""
