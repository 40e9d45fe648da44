extension QRCode {
    /// The code as an SVG image to put inline in a page: one path of the dark modules (a
    /// rectangle per run in each row) on a white square that includes the quiet zone, so the code
    /// scans on a dark page too, where a transparent background would show dark around dark
    /// modules. The size comes from `viewBox` alone, one unit per module, so the page's CSS sets
    /// the width and `shape-rendering="crispEdges"` keeps module edges sharp when scaled.
    ///
    /// - Parameters:
    ///   - title: What a screen reader says for the image (`role="img"` with a `<title>`), for
    ///     example the link itself; escaped here.
    ///   - quietZone: Light modules around the code; the standard asks for 4, and readers find
    ///     the code less reliably with fewer.
    public func svg(title: String, quietZone: Int = 4) -> String {
        let quietZone = max(0, quietZone)
        let side = size + 2 * quietZone
        var path = ""
        for row in 0..<size {
            var column = 0
            while column < size {
                guard self[row, column] else {
                    column += 1
                    continue
                }
                let start = column
                while column < size && self[row, column] { column += 1 }
                path += "M\(start + quietZone) \(row + quietZone)h\(column - start)v1h-\(column - start)z"
            }
        }
        // PropertyList.escape writes XML character data: &, < and > escaped, and characters XML
        // cannot carry left out, so the page stays well-formed whatever the title holds.
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\" role=\"img\" shape-rendering=\"crispEdges\">"
            + "<title>\(PropertyList.escape(title))</title>"
            + "<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/>"
            + "<path fill=\"#000\" d=\"\(path)\"/></svg>"
    }
}
