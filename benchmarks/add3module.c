/* A C extension with the same 3-argument function as pyx's add3: the per-call reference. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *add3(PyObject *self, PyObject *const *args, Py_ssize_t n) {
    long a = PyLong_AsLong(args[0]), b = PyLong_AsLong(args[1]), c = PyLong_AsLong(args[2]);
    if (PyErr_Occurred()) return NULL;
    return PyLong_FromLong(a + b + c);
}

static PyMethodDef methods[] = {{"add3", (PyCFunction)(void (*)(void))add3, METH_FASTCALL, NULL}, {NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "add3module", NULL, -1, methods};
PyMODINIT_FUNC PyInit_add3module(void) { return PyModule_Create(&module); }
