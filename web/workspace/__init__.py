"""The signed-in workspace of the site: organizers, scorekeepers and club managers (mounted at /my/)."""
