# package_cmi5.sh — `attnplay package --cmi5` writes a cmi5 course package: a zip whose CRCs check, holding cmi5.xml at
# its root and the page's files exactly as the SCORM package does (the site-manifest list) with the lessons' JSON.
# cmi5.xml is read with a real XML parser against the cmi5 specification's course structure (section 13): the
# CourseStructure namespace, a course with an id, title and description, one AU per lesson in order, each with its
# IRI id, title, description and a url launching the page at the lesson (the LMS adds the launch parameters, so no
# lms=1), launchMethod AnyWindow, moveOn CompletedAndPassed with masteryScore = the pass mark (0..1), or Completed with
# no masteryScore when there is no pass mark (--pass none) or nothing to score; the page may connect to the https LRS
# the LMS names at launch. Also the errors for what it cannot do.
set -u
BIN=$1
DIR=$2
source "$DIR/helpers.bash"

SITE="$TMP/site"
stub_site "$SITE"
# A teacher's lesson with no prediction (nothing to score): its AU moves on when completed.
python3 - "$TMP/reading.json" <<'PY'
import json, sys
t = lambda en: {"en": en, "hi-Latn": en}
json.dump({"id": "just-reading", "title": t("Just reading"), "summary": t("One step to read."),
           "steps": [{"id": "s1", "text": t("Read this."), "state": {"preset": "default"}, "panels": ["controls"]}]},
          open(sys.argv[1], "w"))
PY

check_course() {  # check_course NAME ZIP PASS(0..1 or none) LESSON...
  local name=$1 zip=$2 pass=$3
  shift 3
  if python3 - "$zip" "$SITE" "$pass" "$@" 2>"$TMP/pyerr" <<'PY'; then pass "$name"; else fail "$name" "$(tail -c 800 "$TMP/pyerr")"; fi
import json, os, sys, zipfile, xml.etree.ElementTree as ET
zpath, site, pass_mark, lessons = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
z = zipfile.ZipFile(zpath)
assert z.testzip() is None, "a CRC does not match"
names = set(z.namelist())
assert "cmi5.xml" in names, sorted(names)
assert "imsmanifest.xml" not in names, "a cmi5 package carries no SCORM manifest"
listed = [f["path"] for f in json.load(open(os.path.join(site, "site-manifest.json")))["files"]] + ["site-manifest.json"]
for f in listed:
    assert f in names, f + " is not in the package"
    if f != "index.html":
        assert z.read(f) == open(os.path.join(site, f), "rb").read(), f + " differs from the site's copy"
html = z.read("index.html").decode()
assert "connect-src 'self' https:" in html, "the page may not reach the LMS's LRS: " + html
NS = "{https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd}"
root = ET.fromstring(z.read("cmi5.xml"))
assert root.tag == NS + "courseStructure", root.tag
kids = list(root)
course = kids[0]
assert course.tag == NS + "course" and course.get("id", "").startswith("https://"), course.attrib
def langstrings(el, what):
    assert el is not None, what + " is missing"
    ls = el.findall(NS + "langstring")
    assert ls and all(l.get("lang") in ("en", "hi-Latn") and (l.text or "").strip() for l in ls), what + ": " + ET.tostring(el).decode()
    return {l.get("lang"): l.text for l in ls}
assert [c.tag for c in course] == [NS + "title", NS + "description"], [c.tag for c in course]
langstrings(course.find(NS + "title"), "the course title")
langstrings(course.find(NS + "description"), "the course description")
aus = kids[1:]
assert all(a.tag == NS + "au" for a in aus), [a.tag for a in aus]
ids = [a.get("id") for a in aus]
assert len(set(ids)) == len(ids), "AU ids are not unique"
assert ids == ["https://attnplay.invalid/lessons/" + l for l in lessons], ids
for au, lesson in zip(aus, lessons):
    assert [c.tag for c in au] == [NS + "title", NS + "description", NS + "url"], [c.tag for c in au]
    title = langstrings(au.find(NS + "title"), lesson + " title")
    langstrings(au.find(NS + "description"), lesson + " description")
    assert title["en"] != lesson, "the lesson's title, not its id"
    url = au.find(NS + "url").text
    teacher = "lessons/" + lesson + ".json" in names  # a teacher's file by its place; a built-in lesson by its id
    want = "index.html?lesson-url=lessons%2F" + lesson + ".json" if teacher else "index.html?lesson=" + lesson
    assert url == want, url
    assert url.split("?")[0] in names, url + " does not open a file in the package"
    assert au.get("launchMethod") == "AnyWindow", au.attrib
    scored = lesson != "just-reading"
    if pass_mark != "none" and scored:
        assert au.get("moveOn") == "CompletedAndPassed", au.attrib
        assert au.get("masteryScore") == pass_mark, au.attrib
    else:
        assert au.get("moveOn") == "Completed", au.attrib
        assert au.get("masteryScore") is None, au.attrib
PY
}

if expect_ok "package cmi5" "$BIN" package --lesson why-attention,softmax,"$TMP/reading.json" --cmi5 --site "$SITE" \
  --out "$TMP/course.zip" --pass 0.75 --title "Attention & softmax"; then
  grep -q "cmi5, 3 lessons" "$TMP/out" && pass "cmi5: the summary line names it" || fail "cmi5: the summary line names it" "$(cat "$TMP/out")"
  if command -v xmllint >/dev/null; then
    if unzip -p "$TMP/course.zip" cmi5.xml | xmllint --noout - 2>"$TMP/xmlerr"; then pass "cmi5: xmllint parses cmi5.xml"
    else fail "cmi5: xmllint parses cmi5.xml" "$(head -c 400 "$TMP/xmlerr")"; fi
  fi
  unzip -p "$TMP/course.zip" cmi5.xml | grep -q '<langstring lang="en">Attention &amp; softmax</langstring>' &&
    pass "cmi5: the course title, escaped" || fail "cmi5: the course title, escaped" "$(unzip -p "$TMP/course.zip" cmi5.xml | head -8)"
  check_course "cmi5: zip, site files and course structure (mastery 0.75)" "$TMP/course.zip" 0.75 why-attention softmax just-reading
fi
# The SCORM package of the same lessons carries the same site files (one list: site-manifest.json).
if expect_ok "package SCORM 2004 beside it" "$BIN" package --lesson why-attention,softmax --scorm 2004 --site "$SITE" --out "$TMP/scorm.zip" &&
  expect_ok "package cmi5 of the same lessons" "$BIN" package --lesson why-attention,softmax --cmi5 --site "$SITE" --out "$TMP/same.zip"; then
  if python3 - "$TMP/scorm.zip" "$TMP/same.zip" 2>"$TMP/pyerr" <<'PY'
import sys, zipfile
scorm, cmi5 = (set(zipfile.ZipFile(p).namelist()) for p in sys.argv[1:3])
assert scorm - {"imsmanifest.xml"} == cmi5 - {"cmi5.xml"}, (scorm ^ cmi5)
PY
  then pass "cmi5 and SCORM packages carry the same files"; else fail "cmi5 and SCORM packages carry the same files" "$(tail -c 400 "$TMP/pyerr")"; fi
fi
if expect_ok "package cmi5 without a pass mark" "$BIN" package --lesson why-attention --cmi5 --pass none --site "$SITE" --out "$TMP/none.zip"; then
  check_course "cmi5 without a pass mark: moveOn Completed, no masteryScore" "$TMP/none.zip" none why-attention
fi
if expect_ok "package cmi5 with the default pass mark" "$BIN" package --lesson softmax --cmi5 --site "$SITE" --out "$TMP/default.zip"; then
  check_course "cmi5: the default pass mark 0.8" "$TMP/default.zip" 0.8 softmax
fi

expect_error "--cmi5 with --scorm" 2 "not both" "$BIN" package --lesson softmax --cmi5 --scorm 2004 --out "$TMP/x.zip"
expect_error "--pass none for SCORM" 2 "--cmi5 only" "$BIN" package --lesson softmax --scorm 2004 --pass none --out "$TMP/x.zip"
expect_error "--xapi-endpoint with --cmi5" 2 "SCORM only" "$BIN" package --lesson softmax --cmi5 \
  --xapi-endpoint https://lrs.example.org/xapi/ --out "$TMP/x.zip"
expect_error "cmi5: an unknown lesson" 1 "unknown lesson" "$BIN" package --lesson nope --cmi5 --site "$SITE" --out "$TMP/x.zip"
finish
