"""Serializers declare and validate shapes only; the rules live in scoring/ and the services."""
