//! `--trace-format` and `--trace-out` of `analyze` and `tree`.

use std::io::Write;

use anyhow::Result;
use xiangqi_engine::study::TraceFormat;

use super::usage;
use crate::cli::TraceExportArgs;

/// The chosen format; the flags need `--trace`.
pub fn format(trace: bool, args: &TraceExportArgs) -> Result<TraceFormat> {
    let format: TraceFormat = args
        .trace_format
        .parse()
        .map_err(|error| usage(format!("--trace-format: {error}")))?;
    if !trace && (format != TraceFormat::Text || args.trace_out.is_some() || args.trace_snapshots) {
        return Err(usage(
            "--trace-format, --trace-out and --trace-snapshots need --trace",
        ));
    }
    Ok(format)
}

/// A writer for the trace: the `--trace-out` file, else standard output.
pub fn writer(args: &TraceExportArgs) -> Result<Box<dyn Write>> {
    Ok(match &args.trace_out {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|error| usage(format!("--trace-out {}: {error}", path.display())))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    })
}

/// Writes a whole trace.
pub fn write(args: &TraceExportArgs, text: &str) -> Result<()> {
    let mut out = writer(args)?;
    let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    super::finish_output(written)
}
