"""A stand-in for a browser, for `tweets login --oauth2` as a process: given the authorize URL
(as $BROWSER is), it opens it without following the redirect, then opens the redirect's
Location (the loopback callback tweets listens on), as a browser does after the user approves.
With TAMPER_STATE=1 it changes the state on the way, as a forged redirect would.
Standard library only."""
import os
import sys
import urllib.error
import urllib.request


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


try:
    urllib.request.build_opener(NoRedirect).open(sys.argv[1], timeout=30)
    sys.exit("the authorize page did not redirect")
except urllib.error.HTTPError as answer:
    location = answer.headers["Location"]
if os.environ.get("TAMPER_STATE") == "1":
    location = location.replace("state=", "state=forged")
try:
    urllib.request.urlopen(location, timeout=30).read()
except urllib.error.HTTPError:
    pass  # tweets answers a refused redirect with 400: the browser just shows it
