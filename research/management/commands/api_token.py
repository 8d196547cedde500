"""`manage.py api_token create --user USERNAME --workspace SLUG [--name NAME] [--scope S ...] [--expires-days N]
[--json]` makes an API token and prints it (once: only its digest is kept); `manage.py api_token revoke ID` revokes
one; `manage.py api_token list --user USERNAME` lists a user's tokens without their secrets."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from research.api.tokens import token_create, token_revoke, tokens_of
from research.models import ApiScope, ApiToken


def _user(username: str) -> User:
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise CommandError(f"no user {username!r}")
    return user


def _state(token: ApiToken) -> tuple[str, str]:
    if token.revoked_at is not None:
        state = "revoked"
    else:
        state = f"expires {token.expires_at:%Y-%m-%d}" if token.expires_at else "no expiry"
    return ",".join(token.scopes) or "all scopes", state


class Command(BaseCommand):
    help = "Create, list or revoke API tokens."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        create = actions.add_parser("create", help="a new token, printed once")
        create.add_argument("--user", required=True)
        create.add_argument("--workspace", required=True, help="the workspace's slug")
        create.add_argument("--name", default="command line")
        create.add_argument("--scope", action="append", default=[], choices=ApiScope.values, help="repeatable")
        create.add_argument("--expires-days", type=int, default=90, help="0: never")
        create.add_argument("--json", action="store_true", help='print {"token": ..., "id": ...}')
        listing = actions.add_parser("list", help="a user's tokens (no secrets)")
        listing.add_argument("--user", required=True)
        revoke = actions.add_parser("revoke", help="stop a token at once")
        revoke.add_argument("id", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "create":
            self._create(options)
        elif options["action"] == "list":
            for token in tokens_of(_user(options["user"])):
                self.stdout.write(
                    "\t".join([str(token.pk), token.hint, token.workspace.slug, token.name, *_state(token)])
                )
        else:
            found = ApiToken.objects.filter(pk=options["id"]).first()
            if found is None:
                raise CommandError(f"no token {options['id']}")
            token_revoke(token=found)
            self.stdout.write(f"revoked token {found.pk} ({found.hint}) of {found.user.get_username()}")

    def _create(self, options: dict[str, Any]) -> None:
        days = options["expires_days"] or None
        try:
            made = token_create(
                user=_user(options["user"]),
                workspace_slug=options["workspace"],
                name=options["name"],
                scopes=options["scope"],
                days=days,
            )
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        if options["json"]:
            self.stdout.write(json.dumps({"token": made.key, "id": made.token.pk}))
        else:
            self.stdout.write(f"token {made.token.pk} for {made.token.workspace.slug}: {made.key}")
            self.stdout.write("Keep it now: it is not shown again.")
