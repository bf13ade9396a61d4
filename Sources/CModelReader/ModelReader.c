// See include/CModelReader.h. The child runs Assimp and nothing else; the parent waits with a
// time limit and reads the child's blob from a memfd.
#define _GNU_SOURCE
#include "CModelReader.h"

#include <assimp/cfileio.h>
#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

unsigned arsim_model_postprocess_flags(void) {
  return aiProcess_Triangulate | aiProcess_SortByPType | aiProcess_FlipUVs |
         aiProcess_ValidateDataStructure | aiProcess_JoinIdenticalVertices;
}

// MARK: Child: file access limited to the model's folder

typedef struct {
  const char *model_path;
  const char *folder;  // with the trailing slash, or "" for a bare name
  size_t folder_length;
  uint64_t max_file_bytes;
  char extra[64][1024];
  int extra_count;
  char real_folder[4096];  // the folder with links resolved, "" when it cannot be resolved
  char refused[200];       // the first file asked for outside the model's folder, for the message
  char missing[200];       // the first file asked for that could not be opened
  int missing_errno;
  const char *missing_reason;  // instead of strerror(missing_errno) when set (opened, unusable)
  int missing_first;  // whether that came before any refusal (Assimp then tries other names)
} reader_context;

typedef struct {
  unsigned char *bytes;
  size_t size;
  size_t position;
} memory_file;

static size_t file_read(struct aiFile *file, char *buffer, size_t size, size_t count) {
  memory_file *m = (memory_file *)file->UserData;
  if (size == 0) return 0;
  size_t available = (m->size - m->position) / size;
  size_t n = count < available ? count : available;
  memcpy(buffer, m->bytes + m->position, n * size);
  m->position += n * size;
  return n;
}
static size_t file_write(struct aiFile *file, const char *buffer, size_t size, size_t count) {
  (void)file, (void)buffer, (void)size, (void)count;
  return 0;
}
static size_t file_tell(struct aiFile *file) { return ((memory_file *)file->UserData)->position; }
static size_t file_size(struct aiFile *file) { return ((memory_file *)file->UserData)->size; }
static void file_flush(struct aiFile *file) { (void)file; }
static enum aiReturn file_seek(struct aiFile *file, size_t offset, enum aiOrigin origin) {
  memory_file *m = (memory_file *)file->UserData;
  size_t base = origin == aiOrigin_SET ? 0 : origin == aiOrigin_CUR ? m->position : m->size;
  if (offset > m->size || base > m->size - offset) return aiReturn_FAILURE;
  m->position = base + offset;
  return aiReturn_SUCCESS;
}

/// Whether `name` (a path Assimp asks for) is the model or a file below its folder named
/// without `..` components.
static int allowed(const reader_context *context, const char *name) {
  if (strcmp(name, context->model_path) == 0) return 1;
  if (strncmp(name, context->folder, context->folder_length) != 0) return 0;
  const char *rest = name + context->folder_length;
  // A second slash: Assimp joined an absolute name to the folder.
  if (*rest == '\0' || *rest == '/' || strchr(rest, '\\') != NULL) return 0;
  const char *component = rest;
  while (*component) {
    const char *end = strchr(component, '/');
    size_t length = end ? (size_t)(end - component) : strlen(component);
    if (length == 2 && component[0] == '.' && component[1] == '.') return 0;
    if (!end) break;
    component = end + 1;
  }
  return 1;
}

/// Copies `name` into `out` (at most `size` bytes with the NUL), kept printable: it comes from
/// the model file.
static void remember_name(char *out, size_t size, const char *name) {
  size_t i = 0;
  for (; name[i] && i + 1 < size; i++) {
    unsigned char c = (unsigned char)name[i];
    out[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
  }
  out[i] = '\0';
}

/// Whether `name`, links resolved, lies outside the model's folder (links resolved).
static int leads_outside(const reader_context *context, const char *name) {
  if (!context->real_folder[0]) return 0;
  char *resolved = realpath(name, NULL);
  if (!resolved) return 0;
  size_t length = strlen(context->real_folder);
  int outside = strncmp(resolved, context->real_folder, length) != 0 ||
                (resolved[length] != '/' && context->real_folder[length - 1] != '/');
  free(resolved);
  return outside;
}

/// `name` with the percent-escapes of its part below the model's folder decoded into `out`
/// (`size` bytes): glTF 2.0 URIs are RFC 3986 references, and Assimp 5.2 opens a buffer's
/// `uri` as written (`tri%20mesh.bin` for the file `tri mesh.bin`). 0 when there is nothing to
/// decode, the result does not fit, or an escape is malformed or decodes to NUL.
static int percent_decoded(const reader_context *context, const char *name, char *out,
                           size_t size) {
  if (strncmp(name, context->folder, context->folder_length) != 0) return 0;
  const char *rest = name + context->folder_length;
  if (!strchr(rest, '%') || context->folder_length >= size) return 0;
  memcpy(out, name, context->folder_length);
  size_t n = context->folder_length;
  for (const char *p = rest; *p; p++) {
    if (n + 1 >= size) return 0;
    if (*p != '%') {
      out[n++] = *p;
      continue;
    }
    int value = 0;
    for (int k = 1; k <= 2; k++) {
      char c = p[k];
      int digit = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
      if (digit < 0) return 0;
      value = value * 16 + digit;
    }
    if (value == 0) return 0;
    out[n++] = (char)value;
    p += 2;
  }
  out[n] = '\0';
  return 1;
}

static struct aiFile *file_open(struct aiFileIO *io, const char *name, const char *mode) {
  reader_context *context = (reader_context *)io->UserData;
  if (strchr(mode, 'w') || strchr(mode, 'a') || strchr(mode, '+')) return NULL;
  // A name that does not exist as written is tried percent-decoded; the decoded name then
  // passes the same checks (an escaped '..' is refused like a written one).
  static char decoded[4096];
  if (access(name, F_OK) != 0 && percent_decoded(context, name, decoded, sizeof decoded) &&
      access(decoded, F_OK) == 0) {
    name = decoded;
  }
  if (!allowed(context, name) ||
      (strcmp(name, context->model_path) != 0 && leads_outside(context, name))) {
    if (!context->refused[0]) remember_name(context->refused, sizeof context->refused, name);
    return NULL;
  }
  int fd = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (!context->missing[0]) {
      remember_name(context->missing, sizeof context->missing, name);
      context->missing_errno = errno;
      context->missing_first = !context->refused[0];
    }
    return NULL;
  }
  struct stat info;
  const char *unusable = NULL;
  if (fstat(fd, &info) != 0) {
    unusable = "it cannot be read";
  } else if (!S_ISREG(info.st_mode)) {
    unusable = "not a regular file";  // a FIFO or device would block or never end
  } else if ((uint64_t)info.st_size > context->max_file_bytes) {
    unusable = "over the file size limit";
  }
  if (unusable) {
    // Named as it is: Assimp may go on to try other names, which would then be reported as
    // missing instead.
    if (!context->missing[0]) {
      remember_name(context->missing, sizeof context->missing, name);
      context->missing_reason = unusable;
      context->missing_first = !context->refused[0];
    }
    close(fd);
    return NULL;
  }
  memory_file *m = calloc(1, sizeof(memory_file));
  struct aiFile *file = calloc(1, sizeof(struct aiFile));
  size_t size = (size_t)info.st_size;
  unsigned char *bytes = malloc(size > 0 ? size : 1);
  if (!m || !file || !bytes) {
    free(m), free(file), free(bytes), close(fd);
    return NULL;
  }
  size_t done = 0;
  while (done < size) {
    ssize_t n = read(fd, bytes + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += (size_t)n;
  }
  close(fd);
  m->bytes = bytes;
  m->size = done;
  file->ReadProc = file_read;
  file->WriteProc = file_write;
  file->TellProc = file_tell;
  file->FileSizeProc = file_size;
  file->SeekProc = file_seek;
  file->FlushProc = file_flush;
  file->UserData = (aiUserData)m;
  if (strcmp(name, context->model_path) != 0 && context->extra_count < 64) {
    int duplicate = 0;
    for (int i = 0; i < context->extra_count; i++) {
      if (strcmp(context->extra[i], name) == 0) duplicate = 1;
    }
    if (!duplicate && strlen(name) < sizeof(context->extra[0])) {
      strcpy(context->extra[context->extra_count++], name);
    }
  }
  return file;
}

static void file_close(struct aiFileIO *io, struct aiFile *file) {
  (void)io;
  if (!file) return;
  memory_file *m = (memory_file *)file->UserData;
  if (m) free(m->bytes);
  free(m);
  free(file);
}

// MARK: Child: the blob

typedef struct {
  int fd;
  unsigned char buffer[1 << 16];
  size_t used;
  int failed;
} writer;

static void flush_writer(writer *w) {
  size_t done = 0;
  while (done < w->used && !w->failed) {
    ssize_t n = write(w->fd, w->buffer + done, w->used - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      w->failed = 1;
      break;
    }
    done += (size_t)n;
  }
  w->used = 0;
}

static void put(writer *w, const void *bytes, size_t size) {
  const unsigned char *p = bytes;
  while (size > 0) {
    if (w->used == sizeof(w->buffer)) flush_writer(w);
    size_t room = sizeof(w->buffer) - w->used;
    size_t n = size < room ? size : room;
    memcpy(w->buffer + w->used, p, n);
    w->used += n;
    p += n;
    size -= n;
  }
}
static void put_u32(writer *w, uint32_t value) { put(w, &value, 4); }
static void put_f32(writer *w, float value) { put(w, &value, 4); }

#define MAX_DEPTH 256

/// Triangles of the node subtree (instances counted), saturating at `limit + 1`.
static uint64_t count_triangles(const struct aiScene *scene, const struct aiNode *node, int depth,
                                uint64_t limit, uint32_t *instances) {
  if (depth > MAX_DEPTH) return 0;
  uint64_t total = 0;
  for (unsigned i = 0; i < node->mNumMeshes && total <= limit; i++) {
    unsigned index = node->mMeshes[i];
    if (index >= scene->mNumMeshes) continue;
    const struct aiMesh *mesh = scene->mMeshes[index];
    if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
    total += mesh->mNumFaces;
    (*instances)++;
  }
  for (unsigned i = 0; i < node->mNumChildren && total <= limit; i++) {
    total += count_triangles(scene, node->mChildren[i], depth + 1, limit, instances);
  }
  return total;
}

static void multiply(const struct aiMatrix4x4 *a, const struct aiMatrix4x4 *b,
                     struct aiMatrix4x4 *out) {
  const float *x = &a->a1;
  const float *y = &b->a1;
  float r[16];
  for (int row = 0; row < 4; row++) {
    for (int column = 0; column < 4; column++) {
      float sum = 0;
      for (int k = 0; k < 4; k++) sum += x[row * 4 + k] * y[k * 4 + column];
      r[row * 4 + column] = sum;
    }
  }
  memcpy(&out->a1, r, sizeof r);
}

static void write_meshes(writer *w, const struct aiScene *scene, const struct aiNode *node,
                         const struct aiMatrix4x4 *parent, int depth) {
  if (depth > MAX_DEPTH) return;
  struct aiMatrix4x4 world;
  multiply(parent, &node->mTransformation, &world);
  for (unsigned i = 0; i < node->mNumMeshes; i++) {
    unsigned index = node->mMeshes[i];
    if (index >= scene->mNumMeshes) continue;
    const struct aiMesh *mesh = scene->mMeshes[index];
    if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
    const char *name = mesh->mName.length > 0 ? mesh->mName.data : node->mName.data;
    uint32_t name_length = (uint32_t)strnlen(name, 1024);
    put_u32(w, name_length);
    put(w, name, name_length);
    put_u32(w, mesh->mMaterialIndex);
    int has_uvs = mesh->mTextureCoords[0] != NULL;
    put_u32(w, (uint32_t)has_uvs);
    put_u32(w, mesh->mNumVertices);
    uint32_t triangles = 0;
    for (unsigned f = 0; f < mesh->mNumFaces; f++) triangles += mesh->mFaces[f].mNumIndices == 3;
    put_u32(w, triangles);
    const float *m = &world.a1;
    for (unsigned v = 0; v < mesh->mNumVertices; v++) {
      struct aiVector3D p = mesh->mVertices[v];
      for (int row = 0; row < 3; row++) {
        put_f32(w, m[row * 4] * p.x + m[row * 4 + 1] * p.y + m[row * 4 + 2] * p.z + m[row * 4 + 3]);
      }
    }
    if (has_uvs) {
      for (unsigned v = 0; v < mesh->mNumVertices; v++) {
        put_f32(w, mesh->mTextureCoords[0][v].x);
        put_f32(w, mesh->mTextureCoords[0][v].y);
      }
    }
    for (unsigned f = 0; f < mesh->mNumFaces; f++) {
      const struct aiFace *face = &mesh->mFaces[f];
      if (face->mNumIndices != 3) continue;
      for (int k = 0; k < 3; k++) put_u32(w, face->mIndices[k]);
    }
  }
  for (unsigned i = 0; i < node->mNumChildren; i++) {
    write_meshes(w, scene, node->mChildren[i], &world, depth + 1);
  }
}

static void write_material(writer *w, const struct aiScene *scene, const struct aiMaterial *m) {
  struct aiColor4D color = {1, 1, 1, 1};
  if (aiGetMaterialColor(m, "$clr.base", 0, 0, &color) != aiReturn_SUCCESS) {
    color = (struct aiColor4D){1, 1, 1, 1};
    if (aiGetMaterialColor(m, "$clr.diffuse", 0, 0, &color) != aiReturn_SUCCESS) {
      color = (struct aiColor4D){1, 1, 1, 1};
    }
  }
  put_f32(w, color.r), put_f32(w, color.g), put_f32(w, color.b), put_f32(w, color.a);
  struct aiString path;
  enum aiTextureMapMode modes[3] = {aiTextureMapMode_Wrap, aiTextureMapMode_Wrap,
                                    aiTextureMapMode_Wrap};
  int found = aiGetMaterialTexture(m, aiTextureType_BASE_COLOR, 0, &path, NULL, NULL, NULL, NULL,
                                   modes, NULL) == aiReturn_SUCCESS;
  if (!found) {
    modes[0] = modes[1] = aiTextureMapMode_Wrap;
    found = aiGetMaterialTexture(m, aiTextureType_DIFFUSE, 0, &path, NULL, NULL, NULL, NULL, modes,
                                 NULL) == aiReturn_SUCCESS;
  }
  put_u32(w, (uint32_t)modes[0]);
  put_u32(w, (uint32_t)modes[1]);
  if (!found) {
    put_u32(w, 0), put_u32(w, 0), put_u32(w, 0), put_u32(w, 0);
    return;
  }
  if (path.data[0] == '*') {
    char *end = NULL;
    unsigned long index = strtoul(path.data + 1, &end, 10);
    if (end && *end == '\0' && index < scene->mNumTextures && scene->mTextures[index]) {
      const struct aiTexture *texture = scene->mTextures[index];
      if (texture->mHeight == 0) {
        put_u32(w, 2), put_u32(w, 0), put_u32(w, 0), put_u32(w, texture->mWidth);
        put(w, texture->pcData, texture->mWidth);
      } else {
        uint64_t texels = (uint64_t)texture->mWidth * texture->mHeight;
        put_u32(w, 3), put_u32(w, texture->mWidth), put_u32(w, texture->mHeight);
        put_u32(w, (uint32_t)(texels * 4));
        for (uint64_t i = 0; i < texels; i++) {
          const struct aiTexel *t = &texture->pcData[i];
          unsigned char rgba[4] = {t->r, t->g, t->b, t->a};
          put(w, rgba, 4);
        }
      }
      return;
    }
  }
  uint32_t length = (uint32_t)strnlen(path.data, sizeof(path.data));
  put_u32(w, 1), put_u32(w, 0), put_u32(w, 0), put_u32(w, length);
  put(w, path.data, length);
}

static void fail(int fd, const char *message) {
  if (ftruncate(fd, 0) == 0 && lseek(fd, 0, SEEK_SET) == 0) {
    size_t length = strnlen(message, 4096);
    ssize_t ignored = write(fd, message, length);
    (void)ignored;
  }
}

static int child_main(const char *path, uint64_t max_triangles, uint64_t max_file_bytes, int fd) {
  static reader_context context;
  context.model_path = path;
  context.max_file_bytes = max_file_bytes;
  static char folder[4096];
  const char *slash = strrchr(path, '/');
  size_t folder_length = slash ? (size_t)(slash - path + 1) : 0;
  if (folder_length >= sizeof folder) {
    fail(fd, "path too long");
    return ARSIM_MODEL_REFUSED;
  }
  memcpy(folder, path, folder_length);
  folder[folder_length] = '\0';
  context.folder = folder;
  context.folder_length = folder_length;
  char *real_folder = realpath(folder_length ? folder : ".", NULL);
  if (real_folder && strlen(real_folder) < sizeof context.real_folder) {
    strcpy(context.real_folder, real_folder);
  }
  free(real_folder);
  struct aiFileIO io = {file_open, file_close, (aiUserData)&context};
  struct aiPropertyStore *properties = aiCreatePropertyStore();
  aiSetImportPropertyInteger(properties, AI_CONFIG_PP_SBP_REMOVE,
                             aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const struct aiScene *scene =
      aiImportFileExWithProperties(path, arsim_model_postprocess_flags(), &io, properties);
  if (!scene || !scene->mRootNode) {
    // Assimp joins the model's folder and the name the file gives ('room/' + '/etc/passwd'):
    // the messages show the name as the file gives it.
    const char *refused = context.refused;
    const char *missing_name = context.missing;
    if (folder_length && strncmp(refused, folder, folder_length) == 0) refused += folder_length;
    if (folder_length && strncmp(missing_name, folder, folder_length) == 0) {
      missing_name += folder_length;
    }
    if (context.refused[0] && !context.missing_first) {
      static char outside[400];
      snprintf(outside, sizeof outside,
               "it refers to '%s', outside the model's folder (a model reads only files below "
               "its folder, named without '..', links not leading out of it)",
               refused);
      fail(fd, outside);
      return ARSIM_MODEL_REFUSED;
    }
    if (context.missing[0]) {
      static char missing[400];
      snprintf(missing, sizeof missing, "it refers to '%s', which cannot be opened (%s)",
               missing_name,
               context.missing_reason ? context.missing_reason : strerror(context.missing_errno));
      fail(fd, missing);
      return ARSIM_MODEL_REFUSED;
    }
    const char *reason = aiGetErrorString();
    fail(fd, reason && *reason ? reason : "Assimp read no scene");
    return ARSIM_MODEL_REFUSED;
  }
  uint32_t instances = 0;
  uint64_t triangles = count_triangles(scene, scene->mRootNode, 0, max_triangles, &instances);
  if (triangles > max_triangles) {
    fail(fd, "too many triangles");
    return ARSIM_MODEL_TOO_LARGE;
  }
  static writer w;
  w.fd = fd;
  put(&w, "ARSM", 4);
  put_u32(&w, 1);
  put_u32(&w, (uint32_t)context.extra_count);
  for (int i = 0; i < context.extra_count; i++) {
    uint32_t length = (uint32_t)strlen(context.extra[i]);
    put_u32(&w, length);
    put(&w, context.extra[i], length);
  }
  put_u32(&w, scene->mNumMaterials);
  for (unsigned i = 0; i < scene->mNumMaterials; i++) {
    write_material(&w, scene, scene->mMaterials[i]);
  }
  put_u32(&w, instances);
  struct aiMatrix4x4 identity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  write_meshes(&w, scene, scene->mRootNode, &identity, 0);
  flush_writer(&w);
  if (w.failed) {
    fail(fd, "cannot write the result");
    return ARSIM_MODEL_SYSTEM;
  }
  return ARSIM_MODEL_OK;
}

// MARK: Parent

static void set_message(char *message, size_t size, const char *text) {
  if (size == 0) return;
  snprintf(message, size, "%s", text);
}

arsim_model_status arsim_model_read(const char *path, uint64_t max_triangles,
                                    uint64_t max_file_bytes, double timeout_seconds,
                                    unsigned char **blob, size_t *blob_size, char *message,
                                    size_t message_size) {
  *blob = NULL;
  *blob_size = 0;
  set_message(message, message_size, "");
  int fd = memfd_create("arsim-model", MFD_CLOEXEC);
  if (fd < 0) {
    set_message(message, message_size, strerror(errno));
    return ARSIM_MODEL_SYSTEM;
  }
  pid_t pid = fork();
  if (pid < 0) {
    set_message(message, message_size, strerror(errno));
    close(fd);
    return ARSIM_MODEL_SYSTEM;
  }
  if (pid == 0) {
    // The child inherits every descriptor the process has open, among them other threads'
    // output-folder locks (flock follows the open file): keep only standard I/O and the result
    // file, so a parse never holds another run's folder locked.
    if (fd > 3) close_range(3, (unsigned)fd - 1, 0);
    close_range((unsigned)fd + 1, ~0U, 0);
    // Default signal handling, so a fault ends the child with its signal.
    signal(SIGSEGV, SIG_DFL), signal(SIGBUS, SIG_DFL), signal(SIGABRT, SIG_DFL);
    signal(SIGFPE, SIG_DFL), signal(SIGILL, SIG_DFL), signal(SIGPIPE, SIG_IGN);
    _exit(child_main(path, max_triangles, max_file_bytes, fd));
  }
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  int status = 0;
  // Wait for the child's end without polling where the kernel has pidfds (Linux 5.3): a
  // parse takes milliseconds, and doubling sleeps overslept it by up to 10 ms per model. The
  // loop below then reaps it at once (or stops it at the timeout); without pidfds it polls.
#ifdef SYS_pidfd_open
  int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  if (pidfd >= 0) {
    for (;;) {
      clock_gettime(CLOCK_MONOTONIC, &now);
      double left = timeout_seconds - ((double)(now.tv_sec - start.tv_sec) +
                                       1e-9 * (double)(now.tv_nsec - start.tv_nsec));
      if (left <= 0) break;
      struct pollfd wait_for = {pidfd, POLLIN, 0};
      int ready = poll(&wait_for, 1, left > 3600 ? 3600000 : (int)(left * 1000) + 1);
      if (ready != 0 && !(ready < 0 && errno == EINTR)) break;
    }
    close(pidfd);
  }
#endif
  long pause_ns = 200000;
  for (;;) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      set_message(message, message_size, strerror(errno));
      close(fd);
      return ARSIM_MODEL_SYSTEM;
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    double elapsed = (double)(now.tv_sec - start.tv_sec) + 1e-9 * (double)(now.tv_nsec - start.tv_nsec);
    if (elapsed > timeout_seconds) {
      kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      snprintf(message, message_size, "the reader ran over %.0f s and was stopped", timeout_seconds);
      close(fd);
      return ARSIM_MODEL_TIMED_OUT;
    }
    struct timespec pause = {0, pause_ns};
    nanosleep(&pause, NULL);
    if (pause_ns < 1000000) pause_ns *= 2;
  }
  if (WIFSIGNALED(status)) {
    snprintf(message, message_size, "the reader crashed (signal %d, %s)", WTERMSIG(status),
             strsignal(WTERMSIG(status)));
    close(fd);
    return ARSIM_MODEL_CRASHED;
  }
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : ARSIM_MODEL_CRASHED;
  struct stat info;
  size_t size = fstat(fd, &info) == 0 && info.st_size > 0 ? (size_t)info.st_size : 0;
  unsigned char *bytes = malloc(size > 0 ? size : 1);
  size_t got = 0;
  while (bytes && got < size) {
    ssize_t n = pread(fd, bytes + got, size - got, (off_t)got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += (size_t)n;
  }
  close(fd);
  if (!bytes) {
    set_message(message, message_size, "out of memory");
    return ARSIM_MODEL_SYSTEM;
  }
  if (code != ARSIM_MODEL_OK) {
    if (code > ARSIM_MODEL_SYSTEM) {
      snprintf(message, message_size, "the reader exited with status %d", code);
      code = ARSIM_MODEL_CRASHED;
    } else {
      size_t n = got < message_size - 1 ? got : message_size - 1;
      memcpy(message, bytes, n);
      message[n] = '\0';
      if (n == 0 && code != ARSIM_MODEL_REFUSED) set_message(message, message_size, "no result");
    }
    free(bytes);
    return (arsim_model_status)code;
  }
  *blob = bytes;
  *blob_size = got;
  return ARSIM_MODEL_OK;
}
