import Domain
import HTTPTypes

extension Site {
    /// What a load balancer asks: is the process up, and can it serve.
    enum Health {
        static let live = OpenRoute(.get, "/healthz")
        static let ready = OpenRoute(.get, "/readyz")
    }
}
