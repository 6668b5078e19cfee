//! Which requests are this server's own: the `Host` must name the address served (so a
//! DNS-rebinding page, whose requests carry its own host name, is refused), and an `Origin`,
//! when a browser sends one, must be this server's (so a page of another site cannot drive
//! the API from the user's browser). Scripts that send no `Origin` (curl, tests) are served.

use crate::serve::error::{ApiError, ErrorKind, quote};
use hyper::HeaderMap;
use hyper::header::{HOST, ORIGIN};
use std::net::{IpAddr, SocketAddr};

/// The host names and port this server answers to.
#[derive(Clone, Debug)]
pub struct Guard {
    /// Host names (lower case, IPv6 addresses in brackets) accepted with [`Guard::port`].
    names: Vec<String>,
    /// Any IP address literal is accepted too (the server listens on all addresses).
    any_address: bool,
    /// The port served.
    port: u16,
}

/// `host` as it appears in a `Host` header: IPv6 addresses in brackets, lower case.
fn host_form(host: &str) -> String {
    match host.parse::<IpAddr>() {
        Ok(IpAddr::V6(a)) => format!("[{a}]"),
        _ => host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_ascii_lowercase(),
    }
}

impl Guard {
    /// The guard of a server bound to `bound`, started with `--host host_arg` and
    /// `--allow-host` names `extra`.
    pub fn new(bound: SocketAddr, host_arg: &str, extra: &[String]) -> Guard {
        let mut names = vec![host_form(&bound.ip().to_string()), host_form(host_arg)];
        if bound.ip().is_loopback() || bound.ip().is_unspecified() {
            for n in ["localhost", "127.0.0.1", "[::1]"] {
                names.push(n.to_string());
            }
        }
        names.extend(extra.iter().map(|h| host_form(h)));
        names.sort();
        names.dedup();
        Guard {
            names,
            any_address: bound.ip().is_unspecified(),
            port: bound.port(),
        }
    }

    /// Whether `value` (a `Host` header, or an origin's host part) names this server.
    fn is_own_host(&self, value: &str) -> bool {
        let value = value.trim().to_ascii_lowercase();
        // Split off the port: after the last ':' unless that is inside an IPv6 bracket.
        let (name, port) = match value.rsplit_once(':') {
            Some((n, p)) if !p.contains(']') => (n.to_string(), p.parse::<u16>().ok()),
            _ => (value.clone(), Some(80)),
        };
        if port != Some(self.port) {
            return false;
        }
        self.names.contains(&name)
            || (self.any_address
                && name
                    .trim_start_matches('[')
                    .trim_end_matches(']')
                    .parse::<IpAddr>()
                    .is_ok())
    }

    /// Refuses a request whose `Host` is not this server, or whose `Origin` is another site.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        let forbidden = |what: String| ApiError::new(ErrorKind::Forbidden, what);
        let host = headers
            .get(HOST)
            .ok_or_else(|| ApiError::new(ErrorKind::BadRequest, "no Host header"))?;
        let host = host.to_str().unwrap_or("");
        if !self.is_own_host(host) {
            return Err(forbidden(format!(
                "Host '{}' is not this server (port {}); another name needs \
                 'bashni serve --allow-host NAME'",
                quote(host),
                self.port
            )));
        }
        if let Some(origin) = headers.get(ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            let own = origin
                .strip_prefix("http://")
                .is_some_and(|rest| rest.eq_ignore_ascii_case(host.trim()));
            if !own {
                return Err(forbidden(format!(
                    "requests from the page of another site (Origin '{}') are refused",
                    quote(origin)
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn loopback_hosts_and_own_origin_pass() {
        let g = Guard::new("127.0.0.1:8080".parse().unwrap(), "127.0.0.1", &[]);
        for host in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
        ] {
            assert!(g.check(&headers(&[("host", host)])).is_ok(), "{host}");
        }
        let own = headers(&[
            ("host", "localhost:8080"),
            ("origin", "http://localhost:8080"),
        ]);
        assert!(g.check(&own).is_ok());
    }

    #[test]
    fn other_hosts_ports_and_origins_are_refused() {
        let g = Guard::new("127.0.0.1:8080".parse().unwrap(), "127.0.0.1", &[]);
        for host in [
            "evil.example:8080",
            "127.0.0.1:8081",
            "127.0.0.1",
            "192.168.1.5:8080",
        ] {
            let e = g.check(&headers(&[("host", host)])).unwrap_err();
            assert_eq!(e.status(), 403, "{host}");
        }
        assert_eq!(g.check(&HeaderMap::new()).unwrap_err().status(), 400);
        for origin in [
            "http://evil.example",
            "null",
            "https://127.0.0.1:8080",
            "http://localhost:8080",
        ] {
            let h = headers(&[("host", "127.0.0.1:8080"), ("origin", origin)]);
            let e = g.check(&h).unwrap_err();
            assert_eq!(e.status(), 403, "{origin}");
            assert!(e.message.contains("another site"), "{}", e.message);
        }
    }

    #[test]
    fn all_addresses_and_allowed_names() {
        let g = Guard::new(
            "0.0.0.0:80".parse().unwrap(),
            "0.0.0.0",
            &["Board.Local".into()],
        );
        for host in [
            "10.1.2.3",
            "10.1.2.3:80",
            "board.local",
            "[fe80::1]:80",
            "localhost",
        ] {
            assert!(g.check(&headers(&[("host", host)])).is_ok(), "{host}");
        }
        assert!(g.check(&headers(&[("host", "evil.example")])).is_err());
    }
}
