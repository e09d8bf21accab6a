//! The command line's checks of its files before any work starts: outputs writable, no
//! output one of the inputs or another output ([`check_files`]), and what a file that is not
//! an SPE buffer is ([`file_kind`], for error messages).

/// Checks, before a long run starts, that `path` can be written: its directory exists and
/// is writable, and the path is not a directory. `what` names the option in the message.
fn check_output(path: &std::path::Path, what: &str) -> Result<(), String> {
    let shown = path.display();
    if path.is_dir() {
        return Err(format!("{what} {shown}: is a directory, not a file"));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    match std::fs::metadata(dir) {
        Ok(m) if !m.is_dir() => Err(format!(
            "{what} {shown}: {} is not a directory",
            dir.display()
        )),
        Ok(m) if m.permissions().readonly() => Err(format!(
            "{what} {shown}: directory {} is read-only",
            dir.display()
        )),
        Ok(_) => match std::fs::metadata(path) {
            Ok(f) if f.permissions().readonly() => {
                Err(format!("{what} {shown}: the file is read-only"))
            }
            _ => Ok(()),
        },
        Err(e) => Err(format!(
            "{what} {shown}: directory {} does not exist ({e})",
            dir.display()
        )),
    }
}

/// Where `p` leads: the file itself when it exists (symbolic links resolved), else its
/// folder resolved and its name (a file about to be created).
fn resolved(p: &std::path::Path) -> std::path::PathBuf {
    if let Ok(c) = p.canonicalize() {
        return c;
    }
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    match (dir.canonicalize(), p.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => std::env::current_dir().map_or_else(|_| p.to_path_buf(), |d| d.join(p)),
    }
}

/// Whether two paths name one file: the same device and inode when both exist (hard links
/// too), else the same resolved path.
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        return x.dev() == y.dev() && x.ino() == y.ino();
    }
    resolved(a) == resolved(b)
}

/// Checks a command's files before it does any work: every output can be written
/// ([`check_output`]), no output is one of the inputs, and no two outputs are one file
/// (each would overwrite the other's bytes). `inputs` and `outputs` pair an option's name
/// with its path.
pub fn check_files(
    inputs: &[(&str, &std::path::Path)],
    outputs: &[(&str, &std::path::Path)],
) -> Result<(), String> {
    for (k, (what, path)) in outputs.iter().enumerate() {
        for (iwhat, ipath) in inputs {
            if same_file(path, ipath) {
                return Err(format!(
                    "{what} {} is the input {iwhat} {}: writing it would destroy the input; name another file",
                    path.display(),
                    ipath.display()
                ));
            }
        }
        for (owhat, opath) in &outputs[..k] {
            if same_file(path, opath) {
                return Err(format!(
                    "{owhat} {} and {what} {} are the same file: one output would overwrite the other; name two files",
                    opath.display(),
                    path.display()
                ));
            }
        }
        check_output(path, what)?;
    }
    Ok(())
}

/// [`check_files`] for options that may be absent: `None` paths are skipped.
pub fn check_given<'a>(
    inputs: &[(&'a str, Option<&'a std::path::Path>)],
    outputs: &[(&'a str, Option<&'a std::path::Path>)],
) -> Result<(), String> {
    let given =
        |l: &[(&'a str, Option<&'a std::path::Path>)]| -> Vec<(&'a str, &'a std::path::Path)> {
            l.iter().filter_map(|&(w, p)| Some((w, p?))).collect()
        };
    check_files(&given(inputs), &given(outputs))
}

/// Whether `bytes` look like text: their first 4 KiB are UTF-8 (a character cut at the end
/// aside) without control characters other than whitespace. An SPE buffer is not: its
/// payloads hold zero bytes and its headers bytes that UTF-8 refuses alone.
fn is_text(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    if head.is_empty() {
        return false;
    }
    let valid = match std::str::from_utf8(head) {
        Ok(s) => s,
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(_) => return false,
    };
    !valid.is_empty() && valid.chars().all(|c| !c.is_control() || c.is_whitespace())
}

/// What a file that is not a raw SPE buffer looks like, from its first bytes (for error
/// messages), or None when nothing is recognised.
pub fn file_kind(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"PERFILE2") {
        Some("a perf.data file (read it with `perf script -i FILE` or `perf report -i FILE`; its SPE data is the AUX area)")
    } else if bytes.starts_with(b"\x7fELF") {
        Some("an ELF file")
    } else if bytes.starts_with(b"$version")
        || bytes.starts_with(b"$date")
        || bytes.starts_with(b"$timescale")
    {
        Some("a VCD waveform")
    } else if is_text(bytes) {
        Some("a text file")
    } else {
        None
    }
}
