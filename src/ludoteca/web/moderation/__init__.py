"""Moderation: moderators (granted by ``ludoteca admin grant NAME moderator``) hide posts,
lock threads and suspend accounts, each action logged; everyone may report posts and block
users whose posts they do not want to see."""
