/* SPDX-License-Identifier: Apache-2.0 */
/* dmlcpu — symbol visibility of the public API (C and C++). */
#ifndef DMLCPU_EXPORT_H_
#define DMLCPU_EXPORT_H_

#if defined(_WIN32) && defined(DMLCPU_SHARED)
#if defined(DMLCPU_BUILDING)
#define DMLCPU_API __declspec(dllexport)
#else
#define DMLCPU_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define DMLCPU_API __attribute__((visibility("default")))
#else
#define DMLCPU_API
#endif

#endif /* DMLCPU_EXPORT_H_ */
