"""The web's small shared kernel: refusals (:mod:`.errors`), reading forms (:mod:`.forms`),
and who is asking (:mod:`.requests`, whose ``SignedIn`` and ``Visitor`` are route
parameters). Every feature builds on it; it imports no feature's routes."""
