import Dynamics
import DynamicsEngine
import DynamicsScenes
import Foundation

// `bench --query`: hit tests and ray casts (Benchmarks/README.md, "Query scenes") on n items at
// one item per 40 × 40 pt, n = 1 000, 10 000, 100 000 (`--smoke`: 1 000 only;
// `BENCH_QUERY_SIZES=…` picks others). Each query's cost should stay flat as n grows a
// hundredfold, while a walk over every shape grows with n.

/// Wall-clock seconds of `body`.
private func seconds(_ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    body()
    let d = clock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

func runQueryBench(smoke: Bool, json: Bool) {
    var sizes = smoke ? [1_000] : [1_000, 10_000, 100_000]
    if let text = ProcessInfo.processInfo.environment["BENCH_QUERY_SIZES"] {
        let parsed = text.split(separator: ",").compactMap { Int($0) }.filter { $0 >= 1 && $0 <= 1_000_000 }
        if !parsed.isEmpty { sizes = parsed }
    }
    let points = smoke ? 1_000 : 20_000, rays = smoke ? 200 : 4_000, walks = smoke ? 20 : 200
    if !json {
        print(" items    build ms   point µs  (hits)   ray µs   rayAll µs  (hits)   rect µs   drag µs  sweep µs    walk µs         step ms   first query after µs")
    }
    for n in sizes {
        let (animator, _, side) = QueryScenes.make(n: n)
        animator.step()   // untimed: the bodies and the broad phase
        var rng = SplitMix64Generator(seed: 7)
        let build = seconds { _ = animator.items(at: CGPoint(x: side / 2, y: side / 2)) }

        let pointList = (0..<points).map { _ in CGPoint(x: Double.random(in: 0...side, using: &rng), y: Double.random(in: 0...side, using: &rng)) }
        var pointHits = 0
        let point = seconds { for p in pointList { pointHits += animator.items(at: p).count } }

        // 500 pt rays in every direction, starting far enough inside the crowd to end in it (so
        // a ray meets as many items at every n)
        let inner = max(0, side / 2 - 500)
        let rayList = (0..<rays).map { _ -> (CGPoint, CGPoint) in
            let a = CGPoint(x: side / 2 + Double.random(in: -inner...inner, using: &rng), y: side / 2 + Double.random(in: -inner...inner, using: &rng))
            let angle = Double.random(in: 0..<(2 * Double.pi), using: &rng)
            return (a, CGPoint(x: a.x + 500 * cos(angle), y: a.y + 500 * sin(angle)))
        }
        // spatially coherent queries, as an app makes them: a finger dragging 1 pt per query, and
        // a 500 pt ray sweeping round its start 0.1° per query (the caches stay warm)
        var finger = CGPoint(x: side / 2, y: side / 2)
        let dragList = (0..<points).map { _ -> CGPoint in
            let a = Double.random(in: 0..<(2 * Double.pi), using: &rng)
            finger = CGPoint(x: min(max(finger.x + cos(a), 0), side), y: min(max(finger.y + sin(a), 0), side))
            return finger
        }
        let drag = seconds { for p in dragList { pointHits += animator.items(at: p).count } }
        let center = CGPoint(x: side / 2, y: side / 2)
        let sweep = seconds {
            for k in 0..<rays {
                let a = Double(k) * Double.pi / 1800
                _ = animator.raycast(from: center, to: CGPoint(x: center.x + 500 * cos(a), y: center.y + 500 * sin(a)))
            }
        }
        var first = 0
        let ray = seconds { for (a, b) in rayList where animator.raycast(from: a, to: b) != nil { first += 1 } }
        var allHits = 0
        let rayAll = seconds { for (a, b) in rayList { allHits += animator.raycastAll(from: a, to: b).count } }
        let rect = seconds {
            for p in pointList.prefix(rays) { _ = animator.items(in: CGRect(x: p.x, y: p.y, width: 100, height: 100)) }
        }
        // the same point test on every shape, for comparison
        let world = animator.engineWorld
        let walk = seconds { for p in pointList.prefix(walks) { _ = world.shapesByWalk(containing: Vec2(Float(p.x), Float(p.y))) } }

        // a falling crowd, half a second after it was let go (8 pt a step): most items leave their
        // fat boxes every step or two, so the first query after a step brings the query grid up
        // to date (a rebuild, here); later queries before the next step do not
        let (falling, _, fallingSide) = QueryScenes.make(n: n, falling: true)
        let probe = CGPoint(x: fallingSide / 3, y: fallingSide / 3)
        for _ in 0..<30 { falling.step(); _ = falling.items(at: probe) }
        let stepOnly = seconds { falling.step() }
        let afterStep = seconds { _ = falling.items(at: probe) }

        let pointUS = 1e6 * point / Double(points), rayUS = 1e6 * ray / Double(rays), rayAllUS = 1e6 * rayAll / Double(rays)
        let rectUS = 1e6 * rect / Double(rays), walkUS = 1e6 * walk / Double(walks)
        let dragUS = 1e6 * drag / Double(points), sweepUS = 1e6 * sweep / Double(rays)
        let pointMean = Double(pointHits) / Double(2 * points), rayMean = Double(allHits) / Double(rays)
        if json {
            print("{\"scene\":\"query\",\"items\":\(n),\"build_ms\":\(1000 * build),\"point_us\":\(pointUS),\"point_hits\":\(pointMean),"
                  + "\"ray_us\":\(rayUS),\"ray_first_hits\":\(Double(first) / Double(rays)),\"ray_all_us\":\(rayAllUS),\"ray_all_hits\":\(rayMean),"
                  + "\"rect_us\":\(rectUS),\"drag_point_us\":\(dragUS),\"sweep_ray_us\":\(sweepUS),\"walk_point_us\":\(walkUS),\"step_ms\":\(1000 * stepOnly),\"query_after_step_us\":\(1e6 * afterStep)}")
        } else {
            func lpad(_ s: String, _ w: Int) -> String { s.count >= w ? s : String(repeating: " ", count: w - s.count) + s }
            var line = lpad("\(n)", 6) + lpad(String(format: "%.2f", 1000 * build), 12)
            line += lpad(String(format: "%.2f", pointUS), 11) + lpad(String(format: "(%.2f)", pointMean), 9)
            line += lpad(String(format: "%.2f", rayUS), 9) + lpad(String(format: "%.2f", rayAllUS), 12) + lpad(String(format: "(%.1f)", rayMean), 8)
            line += lpad(String(format: "%.2f", rectUS), 10) + lpad(String(format: "%.2f", dragUS), 10) + lpad(String(format: "%.2f", sweepUS), 10)
            line += lpad(String(format: "%.1f", walkUS), 11)
            line += lpad(String(format: "%.2f", 1000 * stepOnly), 16) + lpad(String(format: "%.0f", 1e6 * afterStep), 22)
            print(line)
        }
    }
}
