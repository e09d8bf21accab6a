//! Finding and running the external tools (Yosys, nextpnr-ice40), each with its log file.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// An external program and the Debian package that provides it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tool {
    pub program: &'static str,
    pub package: &'static str,
    /// Option that prints the version.
    pub version_arg: &'static str,
}

pub const YOSYS: Tool = Tool {
    program: "yosys",
    package: "yosys",
    version_arg: "-V",
};

pub const NEXTPNR_ICE40: Tool = Tool {
    program: "nextpnr-ice40",
    package: "nextpnr-ice40",
    version_arg: "--version",
};

/// icestorm's bitstream packer (it has no version option; `-h` prints its usage).
pub const ICEPACK: Tool = Tool {
    program: "icepack",
    package: "fpga-icestorm",
    version_arg: "-h",
};

impl Tool {
    /// Full path of the program found on PATH, or an error naming the package to install.
    pub fn find(self) -> Result<PathBuf, String> {
        let path = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&path)
            .map(|dir| dir.join(self.program))
            .find(|p| p.is_file())
            .ok_or_else(|| {
                format!(
                    "{} not found on PATH: install the Debian package {} (apt-get install -y {})",
                    self.program, self.package, self.package
                )
            })
    }

    /// The tool's version line, trimmed (`Yosys 0.23 (git sha1 ...)`).
    pub fn version(self, exe: &Path) -> Result<String, String> {
        let out = Command::new(exe)
            .arg(self.version_arg)
            .output()
            .map_err(|e| format!("running {} {}: {e}", exe.display(), self.version_arg))?;
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        Ok(text.lines().next().unwrap_or("").trim().to_string())
    }

    /// Runs the tool in `dir` with `args`, stdout and stderr into `log`. On failure the
    /// error names the log and quotes its first `ERROR` line.
    pub fn run(self, exe: &Path, args: &[String], dir: &Path, log: &Path) -> Result<(), String> {
        let file = File::create(log).map_err(|e| format!("creating {}: {e}", log.display()))?;
        let err_file = file
            .try_clone()
            .map_err(|e| format!("creating {}: {e}", log.display()))?;
        let status = Command::new(exe)
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(file)
            .stderr(err_file)
            .status()
            .map_err(|e| format!("running {}: {e}", exe.display()))?;
        if status.success() {
            return Ok(());
        }
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let first_error = text
            .lines()
            .find(|l| l.starts_with("ERROR") || l.contains("ERROR:"))
            .map(|l| format!(": {}", l.trim()))
            .unwrap_or_default();
        Err(format!(
            "{} failed ({status}){first_error}; full log: {}",
            self.program,
            log.display()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_tool_error_names_the_debian_package() {
        let t = Tool {
            program: "spe-no-such-tool-xyz",
            package: "spe-pkg",
            version_arg: "-V",
        };
        let e = t.find().unwrap_err();
        assert!(e.contains("apt-get install -y spe-pkg"), "{e}");
    }

    #[test]
    fn failed_run_points_at_the_log() {
        let dir = std::env::temp_dir().join(format!("spe-fpga-tools-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("fail.log");
        let sh = Tool {
            program: "sh",
            package: "dash",
            version_arg: "--version",
        };
        let exe = sh.find().unwrap();
        let args = ["-c".to_string(), "echo 'ERROR: boom'; exit 3".to_string()];
        let e = sh.run(&exe, &args, &dir, &log).unwrap_err();
        assert!(e.contains("ERROR: boom") && e.contains("fail.log"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
