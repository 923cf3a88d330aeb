# Writes headroom(1) from the CLI's own help: `headroom --help` and `headroom help VERB` for
# every verb it lists, so the man page cannot drift from the program.
#   cmake -DHEADROOM=path/to/headroom -DOUT=headroom.1.gz -DVERSION=x.y.z -DDATE=YYYY-MM-DD -P manpage.cmake
foreach(var HEADROOM OUT VERSION DATE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "manpage.cmake: -D${var}= is required")
  endif()
endforeach()

function(roff_escape text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  # A line starting with . or ' would be read as a request.
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(run_help out)
  # HOME=~ so the default paths in the help read as the user's, not the builder's.
  execute_process(COMMAND ${CMAKE_COMMAND} -E env HOME=~ "${HEADROOM}" ${ARGN}
                  OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "headroom ${ARGN} failed (${rc}): ${err}")
  endif()
  string(STRIP "${text}" text)
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

run_help(overview --help)
string(REGEX MATCH "verbs:\n(([ ][ ][^\n]*\n)+)" _ "${overview}\n")
set(verb_block "${CMAKE_MATCH_1}")
string(REPLACE "\n" ";" verb_lines "${verb_block}")
set(verbs "")
foreach(line IN LISTS verb_lines)
  if(line MATCHES "^  ([a-z][a-z-]*)  " AND NOT CMAKE_MATCH_1 STREQUAL "help")
    list(APPEND verbs "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(LENGTH verbs verb_count)
if(verb_count LESS 5)
  message(FATAL_ERROR "manpage.cmake: found only ${verb_count} verbs in headroom --help")
endif()

roff_escape("${overview}" overview_roff)
set(page ".TH HEADROOM 1 \"${DATE}\" \"headroom ${VERSION}\" \"User Commands\"
.SH NAME
headroom \\- GPU capacity planning workbench for AI inference and training
.SH SYNOPSIS
.B headroom
.RI [ FILE.headroom ]
.br
.B headroom
.RB [ \\-\\-workspace
.IR PATH \" | \" \\-\\-demo ]
.I VERB
.RI [ options ]
.SH DESCRIPTION
Without arguments, or with a workspace file, \\fBheadroom\\fR opens the workbench window on
that workspace (a single SQLite file named \\fI*.headroom\\fR). With a verb it runs one
analysis headless and prints the result as text or, with \\fB\\-\\-json\\fR, as JSON.
Exit status is 0 on success, 2 on bad input (the reason is printed on standard error) and
1 on an internal error.
.SH OVERVIEW
.nf
${overview_roff}
.fi
.SH VERBS
")
foreach(verb IN LISTS verbs)
  run_help(usage help "${verb}")
  roff_escape("${usage}" usage_roff)
  string(APPEND page ".SS ${verb}\n.nf\n${usage_roff}\n.fi\n")
endforeach()
string(APPEND page ".SH FILES
.TP
.I ~/.local/share/Headroom/headroom/workspace.headroom
The default workspace.
.SH SEE ALSO
The README shipped in the source tree.
")

get_filename_component(dir "${OUT}" DIRECTORY)
string(REGEX REPLACE "\\.gz$" "" plain "${OUT}")
file(WRITE "${plain}" "${page}")
# Compressed the Debian way: best compression, no name or time stamp inside.
execute_process(COMMAND gzip -9nf "${plain}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip ${plain} failed")
endif()
