// CFormwellToolCompat exports nothing to Swift: it only defines C library symbols for the
// `formwell` executable (hypotf.c says why).
