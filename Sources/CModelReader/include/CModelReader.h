// Reads a glTF 2.0 or Wavefront OBJ model through Assimp in a forked child process, so that a
// parser fault (a crash, an endless loop, a runaway allocation) in Assimp ends the child and
// not the replay. The child flattens the scene (node transforms applied, triangles only) into
// a blob in an anonymous memory file (memfd) that the parent reads after the child exits.
#ifndef ARSIM_CMODELREADER_H
#define ARSIM_CMODELREADER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Results of `arsim_model_read`.
typedef enum {
  ARSIM_MODEL_OK = 0,
  /// Assimp refused the file; `message` holds its reason.
  ARSIM_MODEL_REFUSED = 1,
  /// The child ended by a signal (a parser crash) or exited without a result.
  ARSIM_MODEL_CRASHED = 2,
  /// The child ran longer than the time limit and was killed.
  ARSIM_MODEL_TIMED_OUT = 3,
  /// Over `max_triangles` after triangulation.
  ARSIM_MODEL_TOO_LARGE = 4,
  /// The process could not create the child or the shared memory file.
  ARSIM_MODEL_SYSTEM = 5,
} arsim_model_status;

/// The post-process steps `arsim_model_read` asks Assimp for (aiPostProcessSteps bits):
/// Triangulate | SortByPType (points and lines removed) | FlipUVs (texture origin at the top
/// left, as glTF and ARSim's textures) | ValidateDataStructure | JoinIdenticalVertices.
unsigned arsim_model_postprocess_flags(void);

/// Reads the model at `path` (its extension picks Assimp's importer). Files the importer opens
/// besides `path` (glTF buffers, OBJ material libraries) must be regular files in `path`'s
/// folder or below it, named without `..` and not absolute, of at most `max_file_bytes`.
///
/// On `ARSIM_MODEL_OK`, `*blob` (free with `free`) holds `*blob_size` bytes:
/// "ARSM", u32 version 1, u32 file count, per file (u32 length, bytes: the extra files opened),
/// u32 material count, per material (f32 r g b a, u32 wrapU, u32 wrapV, u32 texture kind
/// 0 none / 1 path / 2 encoded bytes / 3 RGBA8 texels, u32 width, u32 height, u32 length,
/// bytes), u32 mesh count, per mesh instance (u32 name length, name, u32 material, u32 has
/// uvs, u32 vertex count, u32 triangle count, f32 positions ×3, f32 uvs ×2 when present,
/// u32 indices ×3), all little-endian as the host. Otherwise `message` (NUL-terminated, at most
/// `message_size` bytes) says why.
arsim_model_status arsim_model_read(
    const char *path, uint64_t max_triangles, uint64_t max_file_bytes, double timeout_seconds,
    unsigned char **blob, size_t *blob_size, char *message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
