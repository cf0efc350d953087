//! A small getopt: short options (clustered, `-aq`, `-oOUT`, `-o OUT`), long
//! options (`--all`, `--policy=P`, `--policy P`), `--` to end options, and `-`
//! as an operand (standard input).

use std::ffi::OsString;

/// An option a subcommand accepts.
pub struct Opt {
    /// The one-letter form, if any.
    pub short: Option<char>,
    /// The long form, without the leading `--`; also the name parse results use.
    pub long: &'static str,
    /// Whether the option takes a value.
    pub takes_value: bool,
}

/// One parsed argument, in command-line order.
#[derive(Debug, PartialEq, Eq)]
pub enum Arg {
    /// An option, by long name, with its value if it takes one.
    Opt(&'static str, Option<OsString>),
    /// Anything else: a file name, or `-`.
    Operand(OsString),
}

/// Parses `args` against `opts`. The error is a message for the user.
pub fn parse(args: &[OsString], opts: &[Opt]) -> Result<Vec<Arg>, String> {
    let mut parsed = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        // Option names are ASCII; an argument that is not UTF-8 is an operand
        // unless it looks like an option, which cannot be one we know.
        let Some(text) = arg.to_str() else {
            if arg.as_encoded_bytes().first() == Some(&b'-') {
                return Err(format!("unknown option '{}'", arg.to_string_lossy()));
            }
            parsed.push(Arg::Operand(arg.clone()));
            continue;
        };
        if text == "--" {
            parsed.extend(iter.map(|a| Arg::Operand(a.clone())));
            break;
        }
        if let Some(long) = text.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((name, value)) => (name, Some(OsString::from(value))),
                None => (long, None),
            };
            let opt = opts
                .iter()
                .find(|o| o.long == name)
                .ok_or_else(|| format!("unknown option '--{name}'"))?;
            let value = match (opt.takes_value, inline) {
                (true, Some(v)) => Some(v),
                (true, None) => Some(
                    iter.next()
                        .cloned()
                        .ok_or_else(|| format!("option '--{name}' needs a value"))?,
                ),
                (false, Some(_)) => return Err(format!("option '--{name}' takes no value")),
                (false, None) => None,
            };
            parsed.push(Arg::Opt(opt.long, value));
            continue;
        }
        let Some(cluster) = text.strip_prefix('-').filter(|c| !c.is_empty()) else {
            parsed.push(Arg::Operand(arg.clone()));
            continue;
        };
        for (i, c) in cluster.char_indices() {
            let opt = opts
                .iter()
                .find(|o| o.short == Some(c))
                .ok_or_else(|| format!("unknown option '-{c}'"))?;
            if !opt.takes_value {
                parsed.push(Arg::Opt(opt.long, None));
                continue;
            }
            let rest = &cluster[i + c.len_utf8()..];
            let value = if rest.is_empty() {
                iter.next()
                    .cloned()
                    .ok_or_else(|| format!("option '-{c}' needs a value"))?
            } else {
                OsString::from(rest)
            };
            parsed.push(Arg::Opt(opt.long, Some(value)));
            break;
        }
    }
    Ok(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTS: &[Opt] = &[
        Opt {
            short: Some('a'),
            long: "all",
            takes_value: false,
        },
        Opt {
            short: Some('q'),
            long: "quiet",
            takes_value: false,
        },
        Opt {
            short: Some('o'),
            long: "output",
            takes_value: true,
        },
        Opt {
            short: None,
            long: "policy",
            takes_value: true,
        },
    ];

    fn run(args: &[&str]) -> Result<Vec<Arg>, String> {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        parse(&args, OPTS)
    }

    fn opt(name: &'static str, value: Option<&str>) -> Arg {
        Arg::Opt(name, value.map(OsString::from))
    }

    fn operand(s: &str) -> Arg {
        Arg::Operand(OsString::from(s))
    }

    #[test]
    fn forms() {
        assert_eq!(
            run(&[
                "-aq",
                "x",
                "--policy=latin1",
                "-",
                "-oOUT",
                "--output",
                "O2",
                "--",
                "-q"
            ])
            .unwrap(),
            vec![
                opt("all", None),
                opt("quiet", None),
                operand("x"),
                opt("policy", Some("latin1")),
                operand("-"),
                opt("output", Some("OUT")),
                opt("output", Some("O2")),
                operand("-q"),
            ]
        );
        assert_eq!(
            run(&["--policy", "escape", "-ao", "f"]).unwrap(),
            vec![
                opt("policy", Some("escape")),
                opt("all", None),
                opt("output", Some("f"))
            ]
        );
    }

    #[test]
    fn errors() {
        assert_eq!(run(&["-x"]).unwrap_err(), "unknown option '-x'");
        assert_eq!(run(&["--nope"]).unwrap_err(), "unknown option '--nope'");
        assert_eq!(
            run(&["--policy"]).unwrap_err(),
            "option '--policy' needs a value"
        );
        assert_eq!(run(&["-o"]).unwrap_err(), "option '-o' needs a value");
        assert_eq!(
            run(&["--all=1"]).unwrap_err(),
            "option '--all' takes no value"
        );
    }
}
