"""A stand-in for a browser, for `tweets login --oauth2` as a process: given the authorize URL
(as $BROWSER is), it opens it without following the redirect, then opens the redirect's
Location (the loopback callback tweets listens on), as a browser does after the user approves.
With TAMPER_STATE=1 it changes the state on the way, as a forged redirect would. With
FORGE_FIRST=1 another local process (played by this one) requests the redirect URI first, with a
forged state and code, and must get a 400; then the real redirect follows.
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
if os.environ.get("FORGE_FIRST") == "1":
    forged = location.split("?")[0] + "?state=forged&code=attacker-code"
    try:
        urllib.request.urlopen(forged, timeout=30).read()
        sys.exit("the forged redirect was taken")
    except urllib.error.HTTPError as refused:
        if refused.code != 400:
            sys.exit("the forged redirect got %d, not 400" % refused.code)
try:
    urllib.request.urlopen(location, timeout=30).read()
except urllib.error.HTTPError:
    pass  # tweets answers a refused redirect with 400: the browser just shows it
