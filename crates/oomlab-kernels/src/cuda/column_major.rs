//! A linear layer's row-major product as the column-major call cuBLAS takes
//! (super::cublas).
//!
//! A row-major X with row stride s is the column-major Xᵀ with leading dimension s, so
//! C = op(A)·op(B) in row-major is Cᵀ = op(B)ᵀ·op(A)ᵀ in column-major: the call's first
//! operand is b, its second a, its output c.

use crate::ops::Form;

/// The column-major call for one product.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Call {
    /// Whether the call transposes its first operand (b) and its second (a).
    pub transposed: (bool, bool),
    /// The output's column-major rows and columns, and the inner dimension.
    pub rows: usize,
    pub cols: usize,
    pub inner: usize,
}

impl Call {
    /// The call for `form` with [`Form::mkn`]'s m, k, n.
    pub(super) fn new(form: Form, (m, k, n): (usize, usize, usize)) -> Call {
        let (transposed, rows, cols, inner) = match form {
            // Yᵀ[n,m] = Wᵀ[n,k]·xᵀ[k,m]
            Form::Forward => ((false, false), n, m, k),
            // dXᵀ[k,m] = W[k,n]·dYᵀ[n,m]; W row-major is Wᵀ column-major, so transposed
            Form::InputGrad => ((true, false), k, m, n),
            // dWᵀ[n,k] = dYᵀ[n,m]·x[m,k]
            Form::WeightGrad => ((false, true), n, k, m),
        };
        Call {
            transposed,
            rows,
            cols,
            inner,
        }
    }

    /// The first operand's (b's) stored column-major (rows, columns).
    #[cfg(test)]
    pub fn first(&self) -> (usize, usize) {
        if self.transposed.0 {
            (self.inner, self.rows)
        } else {
            (self.rows, self.inner)
        }
    }

    /// The second operand's (a's) stored column-major (rows, columns).
    #[cfg(test)]
    pub fn second(&self) -> (usize, usize) {
        if self.transposed.1 {
            (self.cols, self.inner)
        } else {
            (self.inner, self.cols)
        }
    }

    /// The output's stored column-major (rows, columns).
    #[cfg(test)]
    pub fn output(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_stored_shape_is_the_row_major_operands_transpose() {
        let (m, k, n) = (3, 5, 7);
        // Row-major shapes of a, b and the output for each form (model::Form's docs).
        for (form, a, b, out) in [
            (Form::Forward, [m, k], [k, n], [m, n]),
            (Form::InputGrad, [m, n], [k, n], [m, k]),
            (Form::WeightGrad, [m, k], [m, n], [k, n]),
        ] {
            assert_eq!(form.mkn(a, b), (m, k, n));
            assert_eq!(form.output(a, b), out);
            let c = Call::new(form, (m, k, n));
            assert_eq!(c.first(), (b[1], b[0]), "{form:?}");
            assert_eq!(c.second(), (a[1], a[0]), "{form:?}");
            assert_eq!(c.output(), (out[1], out[0]), "{form:?}");
            // op(first) · op(second) is (rows x inner)(inner x cols) = the output's shape.
            let op = |(r, c): (usize, usize), t: bool| if t { (c, r) } else { (r, c) };
            let (fa, fb) = (
                op(c.first(), c.transposed.0),
                op(c.second(), c.transposed.1),
            );
            assert_eq!(fa.1, fb.0, "{form:?}");
            assert_eq!((fa.0, fb.1), c.output(), "{form:?}");
        }
    }
}
