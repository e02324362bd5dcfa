"""Who is online: follows between members, their presence and the lobby's live counts."""
