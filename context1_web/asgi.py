"""ASGI entry point: Django for HTTP, Channels for WebSocket (session auth; origin checked with its port)."""

from __future__ import annotations

import os
import threading

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "context1_web.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs the app registry ready)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from context1_web.origins import SameOriginValidator  # noqa: E402
from research.platform.warmup import load_places  # noqa: E402
from research.routing import websocket_urlpatterns  # noqa: E402

# The place tables (a second and a half to read) load beside the first requests, not inside one: the ICP page
# labels each criterion's rule, and a region's rule reads them.
threading.Thread(target=load_places, name="load-places", daemon=True).start()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
