"""The Claude assistant: a conversation agent whose every tool call passes the guard.

Assistant config entries (data {"api_key", "base_url"}) live beside streamer entries; this
package holds everything specific to them, so the streamer code stays as it was.
"""
