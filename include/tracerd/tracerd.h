/**
 * @file tracerd.h
 * The one header users include: every reader of libtracerd.
 */
#ifndef TRACERD_TRACERD_H
#define TRACERD_TRACERD_H

#include <tracerd/core.h>
#include <tracerd/xray.h>
#include <tracerd/fxt.h>
#include <tracerd/ctf.h>
#include <tracerd/xtrace.h>
#include <tracerd/event.h>

#endif /* TRACERD_TRACERD_H */
