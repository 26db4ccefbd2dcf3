//! X11 screenshots (work in progress).
