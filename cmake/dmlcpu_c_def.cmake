# SPDX-License-Identifier: Apache-2.0
# cmake -DIN=<all exports .def> -DOUT=<dmlcpu.def> -P: keeps the C ABI's exports (dmlcpu_*, the
# functions of include/dmlcpu/dmlcpu_c.h), the only ones an MSVC program can call.
file(STRINGS "${IN}" lines)
set(names "")
foreach(line IN LISTS lines)
  if(line MATCHES "^[ \t]*(dmlcpu_[A-Za-z0-9_]+)([ \t@]|$)")
    list(APPEND names "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(LENGTH names count)
if(count EQUAL 0)
  message(FATAL_ERROR "no dmlcpu_* export in ${IN}")
endif()
list(SORT names)
list(JOIN names "\n  " body)
file(WRITE "${OUT}" "LIBRARY dmlcpu.dll\nEXPORTS\n  ${body}\n")
