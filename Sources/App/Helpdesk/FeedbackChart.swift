import Domain
import Foundation

/// One numeric feedback value over time as an SVG line chart, drawn on the server (no script,
/// no library): the line, a dot per fetch with its value on hover, and the range on the axes.
/// The page puts the same numbers in a table for screen readers; the chart itself is one image.
enum FeedbackChart {
    static let width = 560.0
    static let height = 150.0
    static let margin = (left: 48.0, right: 12.0, top: 12.0, bottom: 26.0)

    static func svg(key: String, points: [(at: Date, value: Double)], titleID: String) -> String {
        guard let first = points.first, let last = points.last else { return "" }
        let values = points.map(\.value)
        var (low, high) = (values.min()!, values.max()!)
        if low == high { (low, high) = (low - 1, high + 1) }
        let start = first.at.timeIntervalSince1970, span = max(last.at.timeIntervalSince1970 - start, 1)
        let plotWidth = width - margin.left - margin.right, plotHeight = height - margin.top - margin.bottom
        func x(_ date: Date) -> Double { points.count == 1 ? margin.left + plotWidth / 2 : margin.left + (date.timeIntervalSince1970 - start) / span * plotWidth }
        func y(_ value: Double) -> Double { margin.top + (high - value) / (high - low) * plotHeight }
        let line = points.map { String(format: "%.1f,%.1f", x($0.at), y($0.value)) }.joined(separator: " ")
        let dots = points.map { point in
            String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\"><title>", x(point.at), y(point.value))
                + HTMLText.escape("\(FeedbackText.display(.number(point.value))) at \(DisplayTime.iso(point.at))") + "</title></circle>"
        }.joined()
        let summary = "\(key): \(points.count) fetch\(points.count == 1 ? "" : "es"), from \(FeedbackText.display(.number(first.value))) to \(FeedbackText.display(.number(last.value)))"
        return """
            <svg class="feedback-chart" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-labelledby="\(titleID)">\
            <title id="\(titleID)">\(HTMLText.escape(summary))</title>\
            <line class="axis" x1="\(margin.left)" y1="\(height - margin.bottom)" x2="\(width - margin.right)" y2="\(height - margin.bottom)"/>\
            <line class="axis" x1="\(margin.left)" y1="\(margin.top)" x2="\(margin.left)" y2="\(height - margin.bottom)"/>\
            <text x="\(margin.left - 6)" y="\(margin.top + 4)" text-anchor="end">\(HTMLText.escape(FeedbackText.display(.number(high))))</text>\
            <text x="\(margin.left - 6)" y="\(height - margin.bottom)" text-anchor="end">\(HTMLText.escape(FeedbackText.display(.number(low))))</text>\
            <text x="\(margin.left)" y="\(height - 6)">\(DisplayTime.iso(first.at).prefix(10))</text>\
            <text x="\(width - margin.right)" y="\(height - 6)" text-anchor="end">\(DisplayTime.iso(last.at).prefix(10))</text>\
            <polyline points="\(line)"/>\(dots)</svg>
            """
    }
}
