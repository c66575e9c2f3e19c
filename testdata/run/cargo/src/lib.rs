//! The run fixture: tests known to pass, fail, be ignored, and (opted in
//! through TESTDEX_FIXTURE_HANG, _LEAK and _LOUD) hang, leak a child
//! process and print megabytes.

/// Adds two numbers.
///
/// ```
/// assert_eq!(runfixture::add(1, 2), 3);
/// ```
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::add;

    #[test]
    fn pass() {
        assert_eq!(add(1, 1), 2);
    }

    #[test]
    fn fail() {
        println!("some context");
        assert_eq!(add(1, 0), 2, "got 1, want 2");
    }

    #[test]
    #[ignore = "not today"]
    fn ignored() {}

    /// hang never ends when TESTDEX_FIXTURE_HANG is set.
    #[test]
    fn hang() {
        if std::env::var_os("TESTDEX_FIXTURE_HANG").is_some() {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
    }

    /// leak starts a child that outlives the test when TESTDEX_FIXTURE_LEAK is set.
    #[test]
    fn leak() {
        if std::env::var_os("TESTDEX_FIXTURE_LEAK").is_some() {
            super::record_pid(std::process::Command::new("sleep").arg("300").spawn().unwrap().id());
        }
    }

    /// loud prints two megabytes when TESTDEX_FIXTURE_LOUD is set.
    #[test]
    fn loud() {
        if std::env::var_os("TESTDEX_FIXTURE_LOUD").is_some() {
            let line = "x".repeat(1023);
            for _ in 0..2048 {
                println!("{line}");
            }
        }
    }
}

pub mod ext;

/// Appends pid to the file TESTDEX_FIXTURE_PIDS names, when it is set, so
/// that the test driving this fixture can check by PID that testdex left
/// none of its processes running.
#[cfg(test)]
fn record_pid(pid: u32) {
    use std::io::Write;
    if let Some(path) = std::env::var_os("TESTDEX_FIXTURE_PIDS") {
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path).unwrap();
        writeln!(f, "{pid}").unwrap();
    }
}
