//! Integration tests of the `kssa` binary, one module per subcommand, compiled into one test
//! binary to keep build time down.

mod replay;
