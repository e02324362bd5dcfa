"""The forum: categories (General, one per game, Site), threads, replies, Markdown posts
made safe, boards embedded from links, edits, unread markers and full-text search."""
