#include <stdio.h>
#include <mkdio.h>
