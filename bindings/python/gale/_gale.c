/*
 * _gale.c - the Python extension over gale's public C API (gale.h), nothing else.
 *
 * It is deliberately thin: two types (Context, Batch) that own the C handles, the
 * loops that must not run in Python (adding a whole batch of tasks from flat
 * buffers, reading results and CIGARs back into flat buffers), and the library's
 * constants. Everything users see (keyword parameters, numpy arrays, futures,
 * progress) is in __init__.py.
 *
 * Buffers come in and go out through the buffer protocol only, so the extension
 * needs Python's headers but not numpy's: sequences are one byte buffer plus an
 * int64 offsets buffer (Arrow's layout), results are written into a caller's
 * writable buffer whose layout is gale_result's (RESULT_FIELDS gives it).
 *
 * The GIL is released around every call that can take time (adding tasks,
 * waiting, copying results), so other Python threads run meanwhile. A batch or
 * context in use by one thread is kept alive by the reference that thread's call
 * holds; a context counts the calls in flight on its batches and refuses to be
 * closed under them (gale.h: a handle must not be destroyed while another thread
 * is inside a call on it).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <gale.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- errors ------------------------------------------------------------------ */

/* The Python side registers a factory make_error(status, message) -> exception, so
 * that the exception classes (and their ValueError/MemoryError bases) are defined
 * once, in Python. Until it does, RuntimeError carries the message. */
static PyObject *error_factory = NULL;

static PyObject *raise_status(gale_status s, const char *context) {
    const char *msg = gale_last_error();
    /* With a context naming the pair in the caller's arrays, the library's own "task K: "
     * (K counting within one batch, which may be a part of the caller's arrays) goes. */
    if (context && msg && strncmp(msg, "task ", 5) == 0) {
        const char *p = msg + 5;
        while (*p >= '0' && *p <= '9') p++;
        if (p > msg + 5 && p[0] == ':' && p[1] == ' ') msg = p + 2;
    }
    PyObject *text;
    if (context)
        text = PyUnicode_FromFormat("%s: %s", context, msg && *msg ? msg : gale_status_string(s));
    else
        text = PyUnicode_FromString(msg && *msg ? msg : gale_status_string(s));
    if (!text) return NULL;
    if (!error_factory) {
        PyErr_SetObject(PyExc_RuntimeError, text);
        Py_DECREF(text);
        return NULL;
    }
    PyObject *exc = PyObject_CallFunction(error_factory, "iO", (int)s, text);
    Py_DECREF(text);
    if (!exc) return NULL;
    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    Py_DECREF(exc);
    return NULL;
}

static PyObject *set_error_factory(PyObject *self, PyObject *f) {
    (void)self;
    if (!PyCallable_Check(f)) {
        PyErr_SetString(PyExc_TypeError, "error factory must be callable");
        return NULL;
    }
    Py_INCREF(f);
    Py_XSETREF(error_factory, f);
    Py_RETURN_NONE;
}

/* ---- buffers ----------------------------------------------------------------- */

/* A contiguous read-only view of bytes (any item size 1 format: bytes, bytearray,
 * numpy uint8/int8/S1, memoryview of those). */
static int get_bytes(PyObject *o, Py_buffer *view, const char *what) {
    if (PyObject_GetBuffer(o, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected a contiguous bytes-like buffer (bytes, bytearray, "
                     "numpy uint8 array), got %.100s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    if (view->itemsize != 1) {
        PyErr_Format(PyExc_TypeError, "%s: expected 1-byte items (numpy uint8), got items of %zd bytes "
                     "(format '%s')", what, view->itemsize, view->format ? view->format : "B");
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* A contiguous 1-D view of n 8-byte integers (numpy int64/uint64). */
static int get_i64(PyObject *o, Py_buffer *view, Py_ssize_t n, const char *what, int writable) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(o, view, flags) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected a contiguous%s int64 buffer (numpy int64 array), got %.100s",
                     what, writable ? " writable" : "", Py_TYPE(o)->tp_name);
        return -1;
    }
    const char *f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    if (view->itemsize != 8 || !strchr("qQlL", *f) || f[1] != '\0') {
        PyErr_Format(PyExc_TypeError, "%s: expected 8-byte integers (numpy int64), got format '%s'", what,
                     view->format ? view->format : "B");
        PyBuffer_Release(view);
        return -1;
    }
    if (n >= 0 && view->len / 8 != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd elements, got %zd", what, n, view->len / 8);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* Offsets of n sequences in a buffer of len bytes: n + 1 non-decreasing values in [0, len]. */
static int check_offsets(const int64_t *off, Py_ssize_t n, Py_ssize_t len, const char *what) {
    for (Py_ssize_t i = 0; i <= n; i++) {
        if (off[i] < 0 || off[i] > (int64_t)len) {
            PyErr_Format(PyExc_ValueError, "%s offsets[%zd] = %lld lies outside the data (%zd bytes)", what, i,
                         (long long)off[i], len);
            return -1;
        }
        if (i > 0 && off[i] < off[i - 1]) {
            PyErr_Format(PyExc_ValueError, "%s offsets[%zd] = %lld is below offsets[%zd] = %lld (sequence %zd "
                         "would have a negative length)", what, i, (long long)off[i], i - 1,
                         (long long)off[i - 1], i - 1);
            return -1;
        }
    }
    return 0;
}

/* ---- Context ------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    gale_ctx *ctx;
    Py_ssize_t busy; /* calls in flight on this context's batches (changed with the GIL held) */
} ContextObject;

static PyTypeObject ContextType;

static int Context_init(ContextObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"backend", "device", "threads", "device_memory", "devices", NULL};
    int backend = GALE_BACKEND_AUTO, device = 0, threads = 0;
    unsigned long long device_memory = 0;
    PyObject *devices = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|iiiKO", kwlist, &backend, &device, &threads, &device_memory,
                                     &devices))
        return -1;
    if (self->ctx) {
        PyErr_SetString(PyExc_RuntimeError, "Context is already initialised");
        return -1;
    }
    gale_ctx_opts o;
    gale_ctx_opts_init(&o);
    o.backend = backend;
    o.device = device;
    o.threads = threads;
    o.device_memory = device_memory;
    int *list = NULL;
    if (devices != Py_None) {
        if (PyLong_Check(devices)) {
            o.n_devices = (int)PyLong_AsLong(devices); /* GALE_DEVICES_ALL */
            if (PyErr_Occurred()) return -1;
        } else {
            PyObject *seq = PySequence_Fast(devices, "devices must be a sequence of device indices or -1 (all)");
            if (!seq) return -1;
            Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
            list = PyMem_Calloc(n ? (size_t)n : 1, sizeof(int));
            if (!list) {
                Py_DECREF(seq);
                PyErr_NoMemory();
                return -1;
            }
            for (Py_ssize_t i = 0; i < n; i++) {
                long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
                if (v == -1 && PyErr_Occurred()) {
                    Py_DECREF(seq);
                    PyMem_Free(list);
                    return -1;
                }
                list[i] = (int)v;
            }
            Py_DECREF(seq);
            o.n_devices = (int)n;
            o.devices = list;
        }
    }
    gale_status s;
    gale_ctx *ctx = NULL;
    Py_BEGIN_ALLOW_THREADS
    s = gale_ctx_create(&ctx, &o);
    Py_END_ALLOW_THREADS
    PyMem_Free(list);
    if (s != GALE_OK) {
        raise_status(s, NULL);
        return -1;
    }
    self->ctx = ctx;
    return 0;
}

static int context_usable(ContextObject *c) {
    if (!c->ctx) {
        PyErr_SetString(PyExc_RuntimeError, "the Context is closed");
        return 0;
    }
    return 1;
}

static PyObject *Context_close(ContextObject *self, PyObject *unused) {
    (void)unused;
    if (!self->ctx) Py_RETURN_NONE;
    if (self->busy > 0) {
        PyErr_Format(PyExc_RuntimeError, "cannot close the Context: %zd call(s) on its batches are in flight "
                     "in other threads", self->busy);
        return NULL;
    }
    gale_ctx *ctx = self->ctx;
    self->ctx = NULL; /* its batches see a closed context from now on */
    gale_status s;
    Py_BEGIN_ALLOW_THREADS
    s = gale_ctx_destroy(ctx);
    Py_END_ALLOW_THREADS
    if (s != GALE_OK) return raise_status(s, NULL);
    Py_RETURN_NONE;
}

static void Context_dealloc(ContextObject *self) {
    if (self->ctx) {
        gale_ctx *ctx = self->ctx;
        self->ctx = NULL;
        Py_BEGIN_ALLOW_THREADS
        gale_ctx_destroy(ctx);
        Py_END_ALLOW_THREADS
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Context_backend(ContextObject *self, PyObject *unused) {
    (void)unused;
    if (!context_usable(self)) return NULL;
    int b = 0;
    gale_status s = gale_ctx_backend(self->ctx, &b);
    if (s != GALE_OK) return raise_status(s, NULL);
    return PyLong_FromLong(b);
}

static PyObject *Context_threads(ContextObject *self, PyObject *unused) {
    (void)unused;
    if (!context_usable(self)) return NULL;
    int t = 0;
    gale_status s = gale_ctx_threads(self->ctx, &t);
    if (s != GALE_OK) return raise_status(s, NULL);
    return PyLong_FromLong(t);
}

static PyObject *Context_devices(ContextObject *self, PyObject *unused) {
    (void)unused;
    if (!context_usable(self)) return NULL;
    size_t n = 0;
    gale_status s = gale_ctx_devices(self->ctx, NULL, 0, &n);
    if (s != GALE_OK) return raise_status(s, NULL);
    int *d = PyMem_Calloc(n ? n : 1, sizeof(int));
    if (!d) return PyErr_NoMemory();
    s = gale_ctx_devices(self->ctx, d, n, &n);
    if (s != GALE_OK) {
        PyMem_Free(d);
        return raise_status(s, NULL);
    }
    PyObject *t = PyTuple_New((Py_ssize_t)n);
    for (size_t i = 0; t && i < n; i++) PyTuple_SET_ITEM(t, (Py_ssize_t)i, PyLong_FromLong(d[i]));
    PyMem_Free(d);
    return t;
}

static PyMethodDef Context_methods[] = {
    {"close", (PyCFunction)Context_close, METH_NOARGS, "Destroys the context (cancels and ends its batches)."},
    {"backend", (PyCFunction)Context_backend, METH_NOARGS, "GALE_BACKEND_* the context runs on."},
    {"threads", (PyCFunction)Context_threads, METH_NOARGS, "CPU worker threads."},
    {"devices", (PyCFunction)Context_devices, METH_NOARGS, "CUDA device indices, one per device entry."},
    {NULL, NULL, 0, NULL},
};

static PyObject *Context_get_closed(ContextObject *self, void *unused) {
    (void)unused;
    return PyBool_FromLong(self->ctx == NULL);
}

static PyGetSetDef Context_getset[] = {
    {"closed", (getter)Context_get_closed, NULL, "True once close() ran.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ContextType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gale._gale.Context",
    .tp_basicsize = sizeof(ContextObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Context(backend=0, device=0, threads=0, device_memory=0, devices=None): a gale_ctx.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Context_init,
    .tp_dealloc = (destructor)Context_dealloc,
    .tp_methods = Context_methods,
    .tp_getset = Context_getset,
};

/* ---- Batch --------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    ContextObject *owner; /* strong reference: the context outlives its batches */
    gale_batch *batch;
    int kind;
} BatchObject;

static PyTypeObject BatchType;

static int Batch_init(BatchObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"context", "kind", NULL};
    PyObject *ctx;
    int kind;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!i", kwlist, &ContextType, &ctx, &kind)) return -1;
    if (self->batch) {
        PyErr_SetString(PyExc_RuntimeError, "Batch is already initialised");
        return -1;
    }
    ContextObject *c = (ContextObject *)ctx;
    if (!context_usable(c)) return -1;
    gale_batch *b = NULL;
    gale_status s = gale_batch_create(c->ctx, kind, &b);
    if (s != GALE_OK) {
        raise_status(s, NULL);
        return -1;
    }
    Py_INCREF(ctx);
    self->owner = c;
    self->batch = b;
    self->kind = kind;
    return 0;
}

static void Batch_dealloc(BatchObject *self) {
    /* A closed context already destroyed its batches (gale_ctx_destroy). */
    if (self->batch && self->owner && self->owner->ctx) {
        gale_batch *b = self->batch;
        Py_BEGIN_ALLOW_THREADS
        gale_batch_destroy(b);
        Py_END_ALLOW_THREADS
    }
    self->batch = NULL;
    Py_XDECREF(self->owner);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Every method starts with enter() and ends with leave(): the context cannot be
 * closed by another thread while this thread is inside the C library. */
static int enter(BatchObject *self) {
    if (!self->owner) {
        PyErr_SetString(PyExc_RuntimeError, "the Batch is not initialised");
        return 0;
    }
    if (!self->batch) {
        PyErr_SetString(PyExc_RuntimeError, "the Batch is closed");
        return 0;
    }
    if (!self->owner->ctx) {
        PyErr_SetString(PyExc_RuntimeError, "the Batch's Context is closed");
        return 0;
    }
    self->owner->busy++;
    return 1;
}

static void leave(BatchObject *self) { self->owner->busy--; }

static PyObject *Batch_set(BatchObject *self, PyObject *args) {
    int param;
    long long value;
    if (!PyArg_ParseTuple(args, "iL", &param, &value)) return NULL;
    if (!enter(self)) return NULL;
    gale_status s = gale_batch_set(self->batch, param, (int64_t)value);
    leave(self);
    if (s != GALE_OK) return raise_status(s, NULL);
    Py_RETURN_NONE;
}

static PyObject *Batch_get(BatchObject *self, PyObject *args) {
    int param;
    if (!PyArg_ParseTuple(args, "i", &param)) return NULL;
    if (!enter(self)) return NULL;
    int64_t v = 0;
    gale_status s = gale_batch_get(self->batch, param, &v);
    leave(self);
    if (s != GALE_OK) return raise_status(s, NULL);
    return PyLong_FromLongLong((long long)v);
}

/* add_pairs(h_data, h_offsets, v_data, v_offsets, seeds=None, user_base=0)
 *
 * Adds n tasks, task i being h = h_data[h_offsets[i]:h_offsets[i+1]] and likewise v;
 * seeds (n x 4 int64: h_begin, h_end, v_begin, v_end) for kinds that take one, and
 * user = user_base + i, in one gale_batch_add_tasks call. Returns the number added.
 * On a failure none is added and the error names the first pair at fault by its
 * index in these arrays plus user_base. */
static PyObject *Batch_add_pairs(BatchObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"h_data", "h_offsets", "v_data", "v_offsets", "seeds", "user_base", NULL};
    PyObject *ho, *hoo, *vo, *voo, *seeds = Py_None;
    unsigned long long user_base = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO|OK", kwlist, &ho, &hoo, &vo, &voo, &seeds, &user_base))
        return NULL;
    Py_buffer hd = {0}, hoff = {0}, vd = {0}, voff = {0}, sd = {0};
    int have_h = 0, have_ho = 0, have_v = 0, have_vo = 0, have_s = 0;
    PyObject *ret = NULL;
    if (get_bytes(ho, &hd, "h data") < 0) goto out;
    have_h = 1;
    if (get_bytes(vo, &vd, "v data") < 0) goto out;
    have_v = 1;
    if (get_i64(hoo, &hoff, -1, "h offsets", 0) < 0) goto out;
    have_ho = 1;
    Py_ssize_t n = hoff.len / 8 - 1;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "h offsets: need n + 1 offsets for n sequences (got none)");
        goto out;
    }
    if (get_i64(voo, &voff, n + 1, "v offsets", 0) < 0) goto out;
    have_vo = 1;
    if (seeds != Py_None) {
        if (get_i64(seeds, &sd, 4 * n, "seeds (n x 4: h_begin, h_end, v_begin, v_end)", 0) < 0) goto out;
        have_s = 1;
    }
    const int64_t *hof = (const int64_t *)hoff.buf, *vof = (const int64_t *)voff.buf;
    const int64_t *sp = have_s ? (const int64_t *)sd.buf : NULL;
    if (check_offsets(hof, n, hd.len, "h") < 0 || check_offsets(vof, n, vd.len, "v") < 0) goto out;
    gale_task *ts = PyMem_Calloc(n ? (size_t)n : 1, sizeof *ts);
    if (!ts) {
        PyErr_NoMemory();
        goto out;
    }
    if (!enter(self)) {
        PyMem_Free(ts);
        goto out;
    }
    const char *hb = (const char *)hd.buf, *vb = (const char *)vd.buf;
    gale_status s = GALE_OK;
    size_t before = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        gale_task *t = &ts[i];
        gale_task_init(t);
        t->h = hb + hof[i];
        t->h_len = hof[i + 1] - hof[i];
        t->v = vb + vof[i];
        t->v_len = vof[i + 1] - vof[i];
        if (sp) {
            t->h_begin = sp[4 * i];
            t->h_end = sp[4 * i + 1];
            t->v_begin = sp[4 * i + 2];
            t->v_end = sp[4 * i + 3];
        }
        t->user = user_base + (uint64_t)i;
    }
    /* One call: the library checks and copies the tasks on the context's threads. */
    s = gale_batch_count(self->batch, &before);
    if (s == GALE_OK) s = gale_batch_add_tasks(self->batch, ts, (size_t)n);
    Py_END_ALLOW_THREADS
    leave(self);
    PyMem_Free(ts);
    if (s != GALE_OK) {
        /* The library names the task by its index in the batch ("task K: ..."): name it
         * by its index in the caller's arrays instead (user_base counts the pairs of the
         * caller's earlier parts). */
        char where[64];
        const char *msg = gale_last_error();
        unsigned long long k;
        if (msg && sscanf(msg, "task %llu:", &k) == 1 && k >= before)
            snprintf(where, sizeof where, "pair %llu", (unsigned long long)(user_base + (k - before)));
        else
            snprintf(where, sizeof where, "pairs %llu..%llu", (unsigned long long)user_base,
                     (unsigned long long)(user_base + (uint64_t)n));
        raise_status(s, where);
        goto out;
    }
    ret = PyLong_FromSsize_t(n);
out:
    if (have_h) PyBuffer_Release(&hd);
    if (have_v) PyBuffer_Release(&vd);
    if (have_ho) PyBuffer_Release(&hoff);
    if (have_vo) PyBuffer_Release(&voff);
    if (have_s) PyBuffer_Release(&sd);
    return ret;
}

/* close(): destroys the batch now (its results and CIGARs were copied out), instead of
 * when the object goes; later calls raise. Twice is fine. */
static PyObject *Batch_close(BatchObject *self, PyObject *unused) {
    (void)unused;
    if (!self->batch) Py_RETURN_NONE;
    if (!enter(self)) return NULL;
    gale_batch *b = self->batch;
    self->batch = NULL;
    gale_status s;
    Py_BEGIN_ALLOW_THREADS
    s = gale_batch_destroy(b);
    Py_END_ALLOW_THREADS
    leave(self);
    if (s != GALE_OK) return raise_status(s, NULL);
    Py_RETURN_NONE;
}

static PyObject *Batch_count(BatchObject *self, PyObject *unused) {
    (void)unused;
    if (!enter(self)) return NULL;
    size_t n = 0;
    gale_status s = gale_batch_count(self->batch, &n);
    leave(self);
    if (s != GALE_OK) return raise_status(s, NULL);
    return PyLong_FromSize_t(n);
}

static PyObject *Batch_submit(BatchObject *self, PyObject *unused) {
    (void)unused;
    if (!enter(self)) return NULL;
    gale_status s;
    Py_BEGIN_ALLOW_THREADS
    s = gale_submit(self->batch);
    Py_END_ALLOW_THREADS
    leave(self);
    if (s != GALE_OK) return raise_status(s, NULL);
    Py_RETURN_NONE;
}

/* poll(timeout_ms): True when done, False while running (GALE_E_AGAIN); a cancelled
 * or failed batch raises. Negative timeout: wait for it. The GIL is released while
 * it waits. */
static PyObject *Batch_poll(BatchObject *self, PyObject *args) {
    int timeout_ms = -1;
    if (!PyArg_ParseTuple(args, "|i", &timeout_ms)) return NULL;
    if (!enter(self)) return NULL;
    gale_status s;
    Py_BEGIN_ALLOW_THREADS
    s = gale_poll(self->batch, timeout_ms);
    Py_END_ALLOW_THREADS
    leave(self);
    if (s == GALE_OK) Py_RETURN_TRUE;
    if (s == GALE_E_AGAIN) Py_RETURN_FALSE;
    return raise_status(s, NULL);
}

static PyObject *Batch_cancel(BatchObject *self, PyObject *unused) {
    (void)unused;
    if (!enter(self)) return NULL;
    gale_status s = gale_cancel(self->batch);
    leave(self);
    if (s != GALE_OK) return raise_status(s, NULL);
    Py_RETURN_NONE;
}

/* results_into(buffer, first=0): writes results [first, first + len(buffer) /
 * RESULT_SIZE) into a writable buffer laid out as gale_result[] (the numpy dtype
 * built from RESULT_FIELDS). */
static PyObject *Batch_results_into(BatchObject *self, PyObject *args) {
    PyObject *o;
    Py_ssize_t first = 0;
    if (!PyArg_ParseTuple(args, "O|n", &o, &first)) return NULL;
    Py_buffer b;
    if (PyObject_GetBuffer(o, &b, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) return NULL;
    if (b.len % (Py_ssize_t)sizeof(gale_result) != 0 || first < 0) {
        PyErr_Format(PyExc_ValueError, "results buffer: %zd bytes is not a whole number of %zu-byte results",
                     b.len, sizeof(gale_result));
        PyBuffer_Release(&b);
        return NULL;
    }
    size_t n = (size_t)b.len / sizeof(gale_result);
    if (!enter(self)) {
        PyBuffer_Release(&b);
        return NULL;
    }
    gale_status s = GALE_OK;
    if (n > 0) {
        gale_result *r = (gale_result *)b.buf;
        r[0].size = sizeof(gale_result);
        Py_BEGIN_ALLOW_THREADS
        s = gale_result_get_range(self->batch, (size_t)first, n, r);
        Py_END_ALLOW_THREADS
    }
    leave(self);
    PyBuffer_Release(&b);
    if (s != GALE_OK) return raise_status(s, NULL);
    Py_RETURN_NONE;
}

/* cigars(first, n) -> (ops: bytearray of uint32, offsets: bytearray of int64[n + 1]):
 * the BAM-style CIGARs of results [first, first + n), concatenated. */
static PyObject *Batch_cigars(BatchObject *self, PyObject *args) {
    Py_ssize_t first, n;
    if (!PyArg_ParseTuple(args, "nn", &first, &n)) return NULL;
    if (first < 0 || n < 0) {
        PyErr_SetString(PyExc_ValueError, "cigars: first and n must be >= 0");
        return NULL;
    }
    PyObject *offsets = PyByteArray_FromStringAndSize(NULL, (n + 1) * 8);
    if (!offsets) return NULL;
    if (!enter(self)) {
        Py_DECREF(offsets);
        return NULL;
    }
    int64_t *off = (int64_t *)PyByteArray_AS_STRING(offsets);
    gale_status s = GALE_OK;
    Py_ssize_t i = 0;
    const uint32_t *c;
    size_t k;
    Py_BEGIN_ALLOW_THREADS
    off[0] = 0;
    for (; i < n; i++) {
        s = gale_result_cigar(self->batch, (size_t)(first + i), &c, &k);
        if (s != GALE_OK) break;
        off[i + 1] = off[i] + (int64_t)k;
    }
    Py_END_ALLOW_THREADS
    if (s != GALE_OK) {
        leave(self);
        Py_DECREF(offsets);
        return raise_status(s, NULL);
    }
    PyObject *ops = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)off[n] * 4);
    if (!ops) {
        leave(self);
        Py_DECREF(offsets);
        return NULL;
    }
    uint32_t *dst = (uint32_t *)PyByteArray_AS_STRING(ops);
    Py_BEGIN_ALLOW_THREADS
    for (i = 0; i < n; i++) {
        s = gale_result_cigar(self->batch, (size_t)(first + i), &c, &k);
        if (s != GALE_OK) break;
        if (k) memcpy(dst + off[i], c, k * sizeof *c);
    }
    Py_END_ALLOW_THREADS
    leave(self);
    if (s != GALE_OK) {
        Py_DECREF(offsets);
        Py_DECREF(ops);
        return raise_status(s, NULL);
    }
    return Py_BuildValue("(NN)", ops, offsets);
}

static PyObject *Batch_stats(BatchObject *self, PyObject *unused) {
    (void)unused;
    if (!enter(self)) return NULL;
    gale_stats st;
    memset(&st, 0, sizeof st);
    st.size = sizeof st;
    gale_status s = gale_batch_stats(self->batch, &st);
    leave(self);
    if (s != GALE_OK) return raise_status(s, NULL);
    return Py_BuildValue("{s:K,s:K,s:K,s:K,s:K}", "tasks", (unsigned long long)st.tasks, "cells",
                         (unsigned long long)st.cells, "rescued", (unsigned long long)st.rescued, "kernel_ns",
                         (unsigned long long)st.kernel_ns, "elapsed_ns", (unsigned long long)st.elapsed_ns);
}

static PyMethodDef Batch_methods[] = {
    {"set", (PyCFunction)Batch_set, METH_VARARGS, "set(param_id, value): gale_batch_set."},
    {"get", (PyCFunction)Batch_get, METH_VARARGS, "get(param_id) -> int: gale_batch_get."},
    {"add_pairs", (PyCFunction)(void (*)(void))Batch_add_pairs, METH_VARARGS | METH_KEYWORDS,
     "add_pairs(h_data, h_offsets, v_data, v_offsets, seeds=None, user_base=0) -> n: adds n tasks."},
    {"count", (PyCFunction)Batch_count, METH_NOARGS, "Tasks added so far."},
    {"close", (PyCFunction)Batch_close, METH_NOARGS, "gale_batch_destroy now; later calls raise."},
    {"submit", (PyCFunction)Batch_submit, METH_NOARGS, "gale_submit: starts the batch, returns at once."},
    {"poll", (PyCFunction)Batch_poll, METH_VARARGS, "poll(timeout_ms=-1) -> bool: done?"},
    {"cancel", (PyCFunction)Batch_cancel, METH_NOARGS, "gale_cancel."},
    {"results_into", (PyCFunction)Batch_results_into, METH_VARARGS,
     "results_into(buffer, first=0): copies results into a gale_result[] buffer."},
    {"cigars", (PyCFunction)Batch_cigars, METH_VARARGS,
     "cigars(first, n) -> (ops, offsets) as bytearrays of uint32 and int64."},
    {"stats", (PyCFunction)Batch_stats, METH_NOARGS, "gale_batch_stats as a dict."},
    {NULL, NULL, 0, NULL},
};

static PyObject *Batch_get_kind(BatchObject *self, void *unused) {
    (void)unused;
    return PyLong_FromLong(self->kind);
}

static PyGetSetDef Batch_getset[] = {
    {"kind", (getter)Batch_get_kind, NULL, "The batch's kind id.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gale._gale.Batch",
    .tp_basicsize = sizeof(BatchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Batch(context, kind): a gale_batch.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Batch_init,
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_methods = Batch_methods,
    .tp_getset = Batch_getset,
};

/* ---- module functions ---------------------------------------------------------- */

static PyObject *m_version(PyObject *self, PyObject *unused) {
    (void)self, (void)unused;
    return PyUnicode_FromString(gale_version_string());
}

static PyObject *m_features(PyObject *self, PyObject *unused) {
    (void)self, (void)unused;
    return PyLong_FromUnsignedLong(gale_features());
}

static PyObject *m_cuda_device_count(PyObject *self, PyObject *unused) {
    (void)self, (void)unused;
    int n;
    Py_BEGIN_ALLOW_THREADS
    n = gale_cuda_device_count();
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(n);
}

static PyObject *m_status_string(PyObject *self, PyObject *args) {
    (void)self;
    int s;
    if (!PyArg_ParseTuple(args, "i", &s)) return NULL;
    return PyUnicode_FromString(gale_status_string(s));
}

static PyObject *m_kind_name(PyObject *self, PyObject *args) {
    (void)self;
    int k;
    if (!PyArg_ParseTuple(args, "i", &k)) return NULL;
    const char *n = gale_kind_name(k);
    if (!n) Py_RETURN_NONE;
    return PyUnicode_FromString(n);
}

/* kind_params(kind) -> [(id, name, lower, upper, default), ...] in the table's order. */
static PyObject *m_kind_params(PyObject *self, PyObject *args) {
    (void)self;
    int kind;
    if (!PyArg_ParseTuple(args, "i", &kind)) return NULL;
    size_t n = 0;
    gale_status s = gale_kind_params(kind, NULL, 0, &n);
    if (s != GALE_OK) return raise_status(s, NULL);
    int *ids = PyMem_Calloc(n ? n : 1, sizeof(int));
    if (!ids) return PyErr_NoMemory();
    s = gale_kind_params(kind, ids, n, &n);
    if (s != GALE_OK) {
        PyMem_Free(ids);
        return raise_status(s, NULL);
    }
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list && i < n; i++) {
        gale_bounds b;
        memset(&b, 0, sizeof b);
        b.size = sizeof b;
        s = gale_param_bounds(kind, ids[i], &b);
        if (s != GALE_OK) {
            Py_CLEAR(list);
            raise_status(s, NULL);
            break;
        }
        PyObject *t = Py_BuildValue("(isLLL)", ids[i], b.name, (long long)b.lower, (long long)b.upper,
                                    (long long)b.default_value);
        if (!t || PyList_Append(list, t) < 0) Py_CLEAR(list);
        Py_XDECREF(t);
    }
    PyMem_Free(ids);
    return list;
}

/* cigar_strings(ops, offsets) -> [str]: BAM-style ops as SAM text ("*" when empty). */
static PyObject *m_cigar_strings(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *oo, *offo;
    if (!PyArg_ParseTuple(args, "OO", &oo, &offo)) return NULL;
    Py_buffer ops, off;
    if (PyObject_GetBuffer(oo, &ops, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (get_i64(offo, &off, -1, "cigar offsets", 0) < 0) {
        PyBuffer_Release(&ops);
        return NULL;
    }
    Py_ssize_t n = off.len / 8 - 1, n_ops = ops.len / 4;
    const int64_t *o = (const int64_t *)off.buf;
    const uint32_t *c = (const uint32_t *)ops.buf;
    PyObject *list = NULL;
    char *buf = NULL;
    if (n < 0 || check_offsets(o, n, n_ops, "cigar") < 0) {
        if (n < 0) PyErr_SetString(PyExc_ValueError, "cigar offsets: empty");
        goto out;
    }
    list = PyList_New(n);
    if (!list) goto out;
    size_t cap = 64;
    buf = PyMem_Malloc(cap);
    if (!buf) {
        Py_CLEAR(list);
        PyErr_NoMemory();
        goto out;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        size_t need = (size_t)(o[i + 1] - o[i]) * 12 + 2, len = 0;
        if (need > cap) {
            char *nb = PyMem_Realloc(buf, need);
            if (!nb) {
                Py_CLEAR(list);
                PyErr_NoMemory();
                goto out;
            }
            buf = nb, cap = need;
        }
        if (o[i + 1] == o[i]) buf[len++] = '*';
        for (int64_t j = o[i]; j < o[i + 1]; j++)
            len += (size_t)sprintf(buf + len, "%u%c", (unsigned)GALE_CIGAR_LEN(c[j]),
                                   GALE_CIGAR_STR[GALE_CIGAR_OP(c[j]) < 10 ? GALE_CIGAR_OP(c[j]) : 0]);
        PyObject *str = PyUnicode_FromStringAndSize(buf, (Py_ssize_t)len);
        if (!str) {
            Py_CLEAR(list);
            goto out;
        }
        PyList_SET_ITEM(list, i, str);
    }
out:
    PyMem_Free(buf);
    PyBuffer_Release(&ops);
    PyBuffer_Release(&off);
    return list;
}

static PyMethodDef module_methods[] = {
    {"version_string", m_version, METH_NOARGS, "gale_version_string() of the loaded libgale."},
    {"features", m_features, METH_NOARGS, "gale_features(): GALE_FEATURE_* bits."},
    {"cuda_device_count", m_cuda_device_count, METH_NOARGS, "gale_cuda_device_count()."},
    {"status_string", m_status_string, METH_VARARGS, "gale_status_string(status)."},
    {"kind_name", m_kind_name, METH_VARARGS, "gale_kind_name(kind) or None."},
    {"kind_params", m_kind_params, METH_VARARGS,
     "kind_params(kind) -> [(id, name, lower, upper, default)]."},
    {"cigar_strings", m_cigar_strings, METH_VARARGS,
     "cigar_strings(ops, offsets) -> list of SAM CIGAR strings."},
    {"_set_error_factory", set_error_factory, METH_O, "Registers make_error(status, message)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "gale._gale", "gale's C API (gale.h) for Python: see the gale package.", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

#define ADD_INT(m, name, value)                                                                                \
    do {                                                                                                       \
        if (PyModule_AddIntConstant(m, name, (long)(value)) < 0) goto fail;                                    \
    } while (0)

/* RESULT_FIELDS: (name, byte offset, numpy type code) of each public gale_result
 * field, so that Python builds its dtype from the compiled layout, never a copy of it. */
#define FIELD(name, code) Py_BuildValue("(sns)", #name, (Py_ssize_t)offsetof(gale_result, name), code)

PyMODINIT_FUNC PyInit__gale(void) {
    PyObject *m = NULL, *fields = NULL;
    if (PyType_Ready(&ContextType) < 0 || PyType_Ready(&BatchType) < 0) return NULL;
    m = PyModule_Create(&module_def);
    if (!m) return NULL;
    Py_INCREF(&ContextType);
    if (PyModule_AddObject(m, "Context", (PyObject *)&ContextType) < 0) {
        Py_DECREF(&ContextType);
        goto fail;
    }
    Py_INCREF(&BatchType);
    if (PyModule_AddObject(m, "Batch", (PyObject *)&BatchType) < 0) {
        Py_DECREF(&BatchType);
        goto fail;
    }
    /* Constants: gale.h's, compiled in (never retyped in Python). */
    ADD_INT(m, "VERSION_NUMBER", GALE_VERSION_NUMBER);
    ADD_INT(m, "FEATURE_CPU", GALE_FEATURE_CPU);
    ADD_INT(m, "FEATURE_CUDA", GALE_FEATURE_CUDA);
    ADD_INT(m, "FEATURE_DPX", GALE_FEATURE_DPX);
    ADD_INT(m, "BACKEND_AUTO", GALE_BACKEND_AUTO);
    ADD_INT(m, "BACKEND_CPU", GALE_BACKEND_CPU);
    ADD_INT(m, "BACKEND_CUDA", GALE_BACKEND_CUDA);
    ADD_INT(m, "DEVICES_ALL", GALE_DEVICES_ALL);
    ADD_INT(m, "XDROP", GALE_XDROP);
    ADD_INT(m, "WFA", GALE_WFA);
    ADD_INT(m, "EDIT", GALE_EDIT);
    ADD_INT(m, "SCOPE_SCORE", GALE_SCOPE_SCORE);
    ADD_INT(m, "SCOPE_ALIGNMENT", GALE_SCOPE_ALIGNMENT);
    ADD_INT(m, "DIR_LEFT", GALE_DIR_LEFT);
    ADD_INT(m, "DIR_RIGHT", GALE_DIR_RIGHT);
    ADD_INT(m, "DIR_BOTH", GALE_DIR_BOTH);
    ADD_INT(m, "N_DNA5", GALE_N_DNA5);
    ADD_INT(m, "N_MISMATCH", GALE_N_MISMATCH);
    ADD_INT(m, "N_BYTES", GALE_N_BYTES);
    ADD_INT(m, "P_SCOPE", GALE_P_SCOPE);
    ADD_INT(m, "RF_RESCUED", GALE_RF_RESCUED);
    ADD_INT(m, "RF_LOWMEM", GALE_RF_LOWMEM);
    ADD_INT(m, "RF_CPU", GALE_RF_CPU);
    ADD_INT(m, "RF_CANCELED", GALE_RF_CANCELED);
    ADD_INT(m, "RF_UNFEASIBLE", GALE_RF_UNFEASIBLE);
    ADD_INT(m, "CIGAR_SHIFT", GALE_CIGAR_SHIFT);
    ADD_INT(m, "CIGAR_MASK", GALE_CIGAR_MASK);
    if (PyModule_AddStringConstant(m, "CIGAR_STR", GALE_CIGAR_STR) < 0) goto fail;
    {
        static const struct { const char *name; int value; } statuses[] = {
            {"OK", GALE_OK}, {"E_AGAIN", GALE_E_AGAIN}, {"E_INVALID", GALE_E_INVALID},
            {"E_HANDLE", GALE_E_HANDLE}, {"E_RANGE", GALE_E_RANGE}, {"E_STATE", GALE_E_STATE},
            {"E_INPUT", GALE_E_INPUT}, {"E_NOMEM", GALE_E_NOMEM}, {"E_UNSUPPORTED", GALE_E_UNSUPPORTED},
            {"E_DEVICE", GALE_E_DEVICE}, {"E_CANCELED", GALE_E_CANCELED}, {"E_LIMIT", GALE_E_LIMIT},
            {"E_INTERNAL", GALE_E_INTERNAL}, {"E_NOT_FOUND", GALE_E_NOT_FOUND}, {"E_ABI", GALE_E_ABI},
        };
        for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++)
            ADD_INT(m, statuses[i].name, statuses[i].value);
    }
    ADD_INT(m, "RESULT_SIZE", sizeof(gale_result));
    /* gale_result.size is the struct's own bookkeeping and reserved0 is nothing: not fields. */
    fields = Py_BuildValue("[NNNNNNNNNN]", FIELD(flags, "u4"), FIELD(score_left, "i4"),
                           FIELD(score_right, "i4"), FIELD(score, "i8"), FIELD(h_begin, "i8"),
                           FIELD(h_end, "i8"), FIELD(v_begin, "i8"), FIELD(v_end, "i8"), FIELD(cells, "u8"),
                           FIELD(user, "u8"));
    if (!fields) goto fail;
    if (PyModule_AddObject(m, "RESULT_FIELDS", fields) < 0) goto fail;
    return m;
fail:
    Py_XDECREF(fields);
    Py_XDECREF(m);
    return NULL;
}
