//! The device side of ADB's transport protocol over TCP.
