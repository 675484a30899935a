"""Voila as `cliplab serve` runs it: the server root and Voila's file listing both lead to the gallery.

Run as `python -m cliplab.ui.voila_server <dashboards folder> [voila options]`; `cliplab serve` builds
that command. Voila alone answers its root with a bare listing of the notebooks, which is not where a
person should land.
"""

from __future__ import annotations

from typing import Any

from jupyter_server.utils import url_path_join
from tornado.web import RedirectHandler
from voila.app import Voila

GALLERY = "voila/render/index.ipynb"


class GalleryVoila(Voila):
    def init_handlers(self) -> list[Any]:
        gallery = url_path_join(self.server_url, GALLERY)
        # Earlier handlers win in tornado. The redirects keep the query string (a token, say) and are not
        # permanent, so a browser does not remember them past this version.
        to_gallery = {"url": gallery, "permanent": False}
        redirects = [
            (self.server_url, RedirectHandler, to_gallery),
            (url_path_join(self.server_url, r"/voila/tree(?:/.*)?"), RedirectHandler, to_gallery),
        ]
        handlers: list[Any] = super().init_handlers()
        return redirects + handlers


if __name__ == "__main__":
    GalleryVoila.launch_instance()
