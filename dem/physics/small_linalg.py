"""Small dense products written out entry by entry, for the step kernel's compile time.

Taichi's ``@`` (``matrix_ops._matmul_helper``) accumulates each entry through element stores into a
temporary matrix, some 25–30 IR statements per multiply–add. In the serial step kernel (issue 19) those
statements were 26,700 of the 65,300 of the lowered kernel and 6,200 of its 12,400 constants, and Taichi's
whole-kernel CSE, whose cost is (statements it merges) × (kernel size), spent most of its time merging
them again. Here each entry is one expression a₀b₀ + a₁b₁ + …, summed left to right as ``@`` sums it
(``@`` starts from a zero that the simplifier folds away), so the arithmetic is the same bit for bit.
Inner dimensions 3 and 6 only (written out: a Python-level fold would be an external call to Taichi).
"""

from ..device.kernel_lang import ti


@ti.func
def _row(a, i: ti.template(), x):
    """Σ_j a[i, j] x[j], j in order."""
    m = ti.static(x.get_shape()[0])
    ti.static_assert(m == 3 or m == 6, "small_linalg: inner dimension 3 or 6")
    if ti.static(m == 3):
        return a[i, 0] * x[0] + a[i, 1] * x[1] + a[i, 2] * x[2]
    else:
        return a[i, 0] * x[0] + a[i, 1] * x[1] + a[i, 2] * x[2] + a[i, 3] * x[3] + a[i, 4] * x[4] + a[i, 5] * x[5]


@ti.func
def _row_col(a, i: ti.template(), b, j: ti.template()):
    """Σ_k a[i, k] b[k, j], k in order."""
    m = ti.static(b.get_shape()[0])
    ti.static_assert(m == 3 or m == 6, "small_linalg: inner dimension 3 or 6")
    if ti.static(m == 3):
        return a[i, 0] * b[0, j] + a[i, 1] * b[1, j] + a[i, 2] * b[2, j]
    else:
        return (a[i, 0] * b[0, j] + a[i, 1] * b[1, j] + a[i, 2] * b[2, j] + a[i, 3] * b[3, j] + a[i, 4] * b[4, j]
                + a[i, 5] * b[5, j])


@ti.func
def mat_vec(a, x):
    """a @ x for a local matrix a (n×m) and vector x (m = 3 or 6)."""
    n = ti.static(a.get_shape()[0])
    return ti.Vector([_row(a, i, x) for i in ti.static(range(n))])


@ti.func
def mat_mat(a, b):
    """a @ b for local matrices a (n×m) and b (m×p), m = 3 or 6."""
    n = ti.static(a.get_shape()[0])
    p = ti.static(b.get_shape()[1])
    return ti.Matrix([[_row_col(a, i, b, j) for j in ti.static(range(p))] for i in ti.static(range(n))])
