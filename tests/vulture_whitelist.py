"""What vulture cannot see used in scorekeeper/ (tests/test_lint.py runs it over both).

Views, CLI commands, error handlers and SQLAlchemy event hooks are handed over by their
decorators: pyproject.toml's ``[tool.vulture] ignore_decorators`` covers those. Everything here
is read by name from outside Python's sight: by a library, a template, a string key, or a value.
"""

# ruff: noqa: B018 (naming each attribute is how vulture reads it used)

from vulture.whitelist_utils import Whitelist

_ = Whitelist()

# Alembic reads these from every migration module.
_.revision
_.down_revision
_.branch_labels
_.depends_on
_.downgrade

# Flask's CLI finds the factory by its name (``flask --app scorekeeper``).
_.create_app

# Settings that Flask, Werkzeug, Flask-Login, SQLite and psycopg read off the object they are
# set on.
_.session_protection  # LoginManager
_.session_interface  # Flask
_.request_class  # Flask
_.open_session  # Flask's SessionInterface
_.should_set_cookie  # Flask's SessionInterface
_.get_id  # Flask-Login's user
_.immutable  # Werkzeug's Cache-Control
_.content_encoding  # Werkzeug's response
_.isolation_level  # sqlite3's connection
_.autocommit  # the DBAPI connection

# waitress builds its channels, tasks and request parsers from these classes, and reads a
# request's state off its parser.
_.task_class
_.channel_class
_.parser_class
_.completed
_.expect_continue

# SQLAlchemy's TypeDecorator interface.
_.impl
_.cache_ok
_.process_bind_param
_.process_result_value

# Columns their defaults fill and the database keeps (nothing reads them back yet).
_.merged_by
_.started_by

# Read with ``g.get("...")`` (scorekeeper.games.fast_lane).
_.access_version
# Read with ``g.get("...")`` (scorekeeper.languages).
_.language_from_browser
_.language_changed
# Flask-WTF reads WTForms' messages' translations off the request (scorekeeper.languages).
_.wtforms_translations

# WTForms: ``validate_<field>`` methods are called for their field, ``Meta`` configures the form.
_.validate_time_zone
# The settings page's hidden field that tells its two forms apart (read from ``request.form``).
_.setting
_.validate_other
_.validate_contracts
_.validate_cards_dealt
_.validate_runs_may_wrap
_.Meta

# Enum members reached by value (``Rank("7")``, ``Winner("lowest total")``), never by name.
_.TWO
_.THREE
_.FOUR
_.FIVE
_.SIX
_.SEVEN
_.EIGHT
_.NINE
_.LOWEST_TOTAL
_.ANY
_.SAME_ROUND
_.DISCARD
_.PLAY
_.MOST_ROUNDS_WON
_.ANY_MELD
_.YES

# RuleSet.has_bonus: whether the score sheet offers "went down and out in one turn" (issue 42).
_.has_bonus

# A card's repr is ``Card.parse('7♥')``: it evaluates back to the card.
_.parse

# Read by the Jinja templates (templates/...).
_.confirm  # accounts/*.html, players/_merge.html
_.gone_on  # bin/index.html
_.style  # games/_charts.html
_.dots  # games/_charts.html, a line's dots
_.sentences  # games/_charts.html, the running totals' table's arrival rows
_.y_ticks
_.height
_.bottom
_.label_x
_.score  # games/_board.html, the scoreboard's Can
_.manage
_.contract_text
_.cards_to_deal  # games/_board.html, games/_tv.html
_.owners  # games/_refusal.html, whose hands to check
_.lowest_totals  # history/records.html
_.highest_totals
_.has_previous  # history/_games.html
_.has_next
_.has_password  # accounts/members.html
_.lines_done  # history/_restore_job.html
_.refused_lines
_.points_per_round  # players/show.html
_.opponent_id
_.ahead
_.behind
_.hardest_contract
_.hardest_phase  # players/show.html
_.rule_labels  # referee/_ruling.html
_.leftover_points
_.decided
_.help  # rules/edit.html
_.packs_note  # rules/edit.html
_.described  # rules/show.html
_.game_end
_.provisional  # players/index.html, players/_ratings.html, history/game_ratings.html
_.history_args  # history/season.html
_.peak  # history/_rating_chart.html
_.unfinished  # history/_review.html

# scope.py's declarations of what its hook cannot see, read by tests/test_lint.py.
_.SERVER_WIDE_SITES
_.CORE_MODULES

# extensions.Kept, the one cache: its users move onto it in the rebuild (issue 22).
_.get_or_make

# request_log.MaskedFlask overrides what Flask calls on an unhandled error.
_.log_exception

# settings.StartRefused: the exit status click ends the command with.
_.exit_code

# rules.parts' values of the published games' options (issue 42), read by name where the rules
# engine and the house-rules editor compare them (the engine's side is built on its own branch).
_.KEPT
_.ANY_MELD
_.RUNS
_.YES
_.IF_GOING_DOWN
_.NO
_.LIMITS_PER

# rules.parts.SkipTarget's "next" and GoingOut's "either" (issue 51): house rules read by value;
# no ruling of a meld reads them (the score sheet records hands, not turns).
_.NEXT
_.EITHER

# tally.Tally.more_packs (issue 49): read by the board template alone ("Add to the packs").
_.more_packs

# extensions._Babel.domain_instance: Flask-Babel reads it for every translation (issue 52).
_.domain_instance

# pads.Pad's example and specials_first (issue 51, the Phase 10 pad): read by the pad's
# templates alone (games/_pad_keys.html, the cards fields' placeholder).
_.example
_.specials_first

# games.charts.Series.leader_path: the leader from a leaver's line to its label, read by
# games/_charts.html alone (issue 49).
_.leader_path
