"""The reads, one topic a module, mirroring the services: matches (scoreboards, hand results), clubs, entries, standings."""
