"""The local stand-in's parts: its words (English, German) and its rules."""
