//! YAML reading alone: parses every manifest file of a directory (default: the 85 files of the
//! kube-prometheus bundle in testdata/bench) with `kssa::yaml::parse_stream`, a few rounds, and
//! prints the time per round. `scripts/bench-cli.sh` runs it as a process for each revision.
//! Usage: cargo bench --bench reading [-- DIR]

use std::time::Instant;

const ROUNDS: usize = 5;

fn main() {
    let dir = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .unwrap_or_else(|| {
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/testdata/bench/kube-prometheus"
            )
            .into()
        });
    let mut files: Vec<Vec<u8>> = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir}: {e}")) {
        let path = entry.expect("a directory entry").path();
        if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml" | "json")
        ) {
            files.push(std::fs::read(&path).expect("a readable file"));
        }
    }
    let bytes: usize = files.iter().map(Vec::len).sum();
    let start = Instant::now();
    let mut documents = 0;
    for _ in 0..ROUNDS {
        for f in &files {
            documents += kssa::yaml::parse_stream(f).map_or(0, |d| d.len());
        }
    }
    let per_round = start.elapsed() / ROUNDS as u32;
    println!(
        "reading {} files ({} KB, {} documents): {:.2} ms per round",
        files.len(),
        bytes / 1024,
        documents / ROUNDS,
        per_round.as_secs_f64() * 1000.0
    );
}
