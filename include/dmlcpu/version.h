/* SPDX-License-Identifier: Apache-2.0 */
/* dmlcpu — version of these headers (plain C99 and C++). dmlcpu_version() in dmlcpu_c.h gives
 * the library's. CMakeLists.txt refuses to configure when project(VERSION) differs from these.
 * While the major version is 0, every minor release may change the ABI (docs/abi.md). */
#ifndef DMLCPU_VERSION_H_
#define DMLCPU_VERSION_H_

#define DMLCPU_VERSION_MAJOR 0
#define DMLCPU_VERSION_MINOR 2
#define DMLCPU_VERSION_PATCH 0
#define DMLCPU_VERSION_STRING "0.2.0"
/* MAJOR * 1000000 + MINOR * 1000 + PATCH, comparable with dmlcpu_version(). */
#define DMLCPU_VERSION                                                        \
  (DMLCPU_VERSION_MAJOR * 1000000 + DMLCPU_VERSION_MINOR * 1000 + DMLCPU_VERSION_PATCH)

#endif /* DMLCPU_VERSION_H_ */
