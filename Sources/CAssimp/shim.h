// Assimp's C interface (Debian libassimp-dev, pkg-config `assimp`). Only CModelReader calls it,
// and only in a child process (Documentation/Environments.md, "Reading models").
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
