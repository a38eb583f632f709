//! End-to-end tests of tapscope live under tests/.
