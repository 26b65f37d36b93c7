//! `[server] listen` and `metrics`: an address to listen on, a host name looked up at start.

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};

/// An address to listen on as written: an IP address or a host name, and a port
/// (`0.0.0.0:2222`, `localhost:2222`, `[::1]:2222`). A name is looked up when the
/// server starts ([`ListenAddress::resolve`]), so reading a config that names a host
/// never waits on the network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListenAddress {
    host: String,
    port: u16,
}

impl std::str::FromStr for ListenAddress {
    type Err = String;

    fn from_str(text: &str) -> Result<ListenAddress, String> {
        if let Ok(address) = text.parse::<SocketAddr>() {
            return Ok(ListenAddress {
                host: address.ip().to_string(),
                port: address.port(),
            });
        }
        let shown: String = text.chars().take(60).collect();
        let Some((host, port)) = text.rsplit_once(':') else {
            return Err(format!(
                "'{shown}' has no port: write HOST:PORT, like 127.0.0.1:2222 or localhost:2222"
            ));
        };
        let port: u16 = port
            .parse()
            .map_err(|_| format!("bad port in '{shown}': a number from 0 to 65535"))?;
        // A host name: letters, digits, '-' and '.' (RFC 1123), at most 253 of them.
        let name = !host.is_empty()
            && host.len() <= 253
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
        if !name {
            return Err(format!(
                "bad host in '{shown}': an IP address or a host name, like 127.0.0.1:2222 \
                 or localhost:2222"
            ));
        }
        Ok(ListenAddress {
            host: host.to_owned(),
            port,
        })
    }
}

impl std::fmt::Display for ListenAddress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.host.contains(':') {
            write!(f, "[{}]:{}", self.host, self.port)
        } else {
            write!(f, "{}:{}", self.host, self.port)
        }
    }
}

impl From<SocketAddr> for ListenAddress {
    fn from(address: SocketAddr) -> ListenAddress {
        ListenAddress {
            host: address.ip().to_string(),
            port: address.port(),
        }
    }
}

impl ListenAddress {
    /// The socket address: an IP address as it is, a host name looked up (its first
    /// IPv4 address, else its first one).
    pub fn resolve(&self) -> Result<SocketAddr, String> {
        if let Ok(ip) = self.host.parse::<IpAddr>() {
            return Ok(SocketAddr::new(ip, self.port));
        }
        let found: Vec<SocketAddr> = (self.host.as_str(), self.port)
            .to_socket_addrs()
            .map_err(|error| format!("cannot look up '{}': {error}", self.host))?
            .collect();
        found
            .iter()
            .find(|address| address.is_ipv4())
            .or(found.first())
            .copied()
            .ok_or_else(|| format!("'{}' has no address", self.host))
    }
}
