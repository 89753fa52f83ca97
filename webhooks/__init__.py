"""Webhooks: a tournament's organizers register URLs that receive signed JSON events (issue #13)."""
