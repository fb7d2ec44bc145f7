"""What each fix may reveal (:class:`~standards_lint.engine.rule.Reveals`), declared
once: the rules whose fix it is carry it in their declaration (its page says
it), and the fix proof holds every new finding after a fix to it."""

from __future__ import annotations

from ..engine.rule import Reveals

# Fixes that make readable a value no rule could read before, and the rules
# that read exactly that value: a finding of one of those codes that appears
# after the fix is a first report of the newly read value, not the fix's
# doing.  Any other new finding is a broken promise (a rule was silent for
# no reason, or a fix inferred the wrong side).  One line of argument each.
_PATHS = Reveals.of("SL701 SL710 SL720 SL721 SL812 SL815 SL816 SL824 SL930",
                  "an Active Work path now naming this cycle's record: the scope, design or plan it names is read "
                  "for the first time (its conditions, coverage, steps)")
_MOVE = Reveals.of("SL850 SL851 SL856 SL880 SL906 SL930 SL931",
                 "a record moved to its fixed path (SL930 carries SL635's move) is read there for the first time: "
                 "its header, status and entries (its suspended assignments among them)")
_STALE = Reveals.of("SL643 SL720 SL721 SL930",
                  "the stale frame popped (Recovery.Active set false), or a frame's Owner set to the owner of its "
                  "FailureType: the Active Work paths and records the recovery kept from being due or held are "
                  "due and held (Holding reads the stack and the frames' owners)")
REVEALS: dict = {
    "SL202": Reveals.of("SL301 SL303 SL313 SL314 SL403 SL415 SL507 SL512 SL513 SL631 SL634 SL636 SL640 SL641 SL643 "
                      "SL701 SL710 SL720 SL721 SL730 SL802 SL816 SL861 SL901 SL902 SL930 SL931 SL937 SL961 SL963",
                      "a required STATE.md field made readable (a missing one inserted with the value the rest of "
                      "STATE.md determines, a repeated one made single, a name in another letter case respelt): "
                      "the rules that read that field (state, mode, policy, Id, a path; whether the cycle is "
                      "active at all, its mode: a STANDARD cycle's plan values; a passed record's status) read it "
                      "for the first time"),
    "SL203": Reveals.of("SL307 SL354 SL355 SL420 SL511 SL512 SL710 SL720 SL930 SL934 SL960",
                      "an enumerated STATE.md value made readable (`<TESTING>`, `false `): the rules that branch on "
                      "it (route, gates, held and due records, sign-off readiness) read it for the first time"),
    "SL212": Reveals.of("SL213 SL214 SL215 SL314 SL353",
                      "the BaselineReconciliation list made readable (an empty or partial entry removed): its "
                      "sources (SL213-SL215) and the mode rules on an unresolved list read it for the first time"),
    "SL220": Reveals.of("SL354 SL420 SL816 SL856 SL931 SL937",
                      "a handoff kind respelt (`RESUMES`, ` RESUME`): the rules that route by the kind (the "
                      "handoff's route, which records and gates are due) read it for the first time"),
    "SL260": Reveals.of("SL111 SL601 SL636 SL701 SL710 SL720 SL721 SL800 SL810 SL813 SL814 SL816 SL824 SL853 "
                      "SL857 SL881 SL884 SL886 SL930 SL962",
                      "Active Work.Id respelt to the ID its records name: those records become this cycle's, so "
                      "their contents (their suspended assignments among them) are checked for the first time"),
    "SL501": Reveals.of("SL303 SL411 SL513 SL643 SL644 SL720 SL833 SL882 SL930 SL937",
                      "Recovery.Active set to match the stack: the rules that ask whether recovery is active "
                      "(checkpoints, held and due records and paths, recovery gates; the frame a RESUME popped, "
                      "whose saved assessment Tester restores and whose owner's path a successful return "
                      "needs) read it for the first time"),
    "SL635": _MOVE,
    "SL930": _MOVE,
    "SL640": _PATHS,
    "SL641": _PATHS,
    "SL642": _PATHS,
    "SL643": _PATHS,
    "SL800": Reveals.of("SL814", "a plan Status trimmed (`COMPLETE `): the rule on a COMPLETE plan's steps reads it "
                               "for the first time"),
    "SL901": Reveals.of("SL720 SL721 SL857 SL858 SL931",
                      "a record Status trimmed (`IN_PROGRESS `): the rules on a COMPLETE record (coverage, purpose) "
                      "and on a passed record's status read it for the first time"),
    # The stale-frame fix, whichever of the findings carrying it it is applied for.
    **{code: _STALE for code in ("SL350", "SL505", "SL506", "SL507", "SL510", "SL511", "SL512", "SL513",
                                 "SL514", "SL515", "SL516", "SL520")},
}
