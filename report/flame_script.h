/* flame_script.h - the flame graph's inline script (flame_script.c): zoom, search, details. */
#ifndef LOCUS_FLAME_SCRIPT_H
#define LOCUS_FLAME_SCRIPT_H

extern const char flame_script[];

#endif
