-- contact.h build: premake5 API, runnable by Debian's premake4 4.3 through the shim below.
--
--   premake4 --file=premake5.lua test        build and run every test configuration
--   premake4 --file=premake5.lua bench       build optimised and run the benchmarks, then the report
--   premake4 --file=premake5.lua report      rewrite build/bench/report.md and results.md's summary
--   premake4 --file=premake5.lua pictures    render the README's pictures into examples/
--   premake4 --file=premake5.lua amalgamate  write build/contact.h (one self-contained file)
--   premake4 --file=premake5.lua test_mpi    only the MPI tests (part of `test` when MPI exists)
--   premake4 --file=premake5.lua gmake       just the makefiles, under build/
-- (premake5 takes the same actions; its makefile generator is gmake2 or gmake.)

---------------------------------------------------------------------------------------------
-- Shim: premake4 4.3 lacks workspace/filter/symbols/optimize, returns a number from
-- os.execute, has no _PREMAKE_COMMAND, and strips release binaries unless Symbols is set.
---------------------------------------------------------------------------------------------
local PM4 = tostring(_PREMAKE_VERSION or ""):sub(1, 1) == "4"
if PM4 then
    workspace = solution
    function filter(f)
        if type(f) == "table" and #f == 0 then return configuration({}) end
        if type(f) == "table" then f = f[1] end
        local cfg = f:match("^configurations:(.+)$")
        configuration(cfg or f)
    end
    function symbols(v) if v == "On" then flags { "Symbols" } end end
    function optimize(v) if v == "Speed" or v == "On" then flags { "OptimizeSpeed" } end end
end
local PREMAKE = PM4 and "premake4" or (_PREMAKE_COMMAND or "premake5")
local GMAKE = (not PM4 and premake.action.get("gmake2")) and "gmake2" or "gmake"

-- true when the command exited 0, under both Lua 5.1 (number) and 5.3 (boolean, how, code)
local function run(cmd)
    print("$ " .. cmd)
    io.stdout:flush()
    local a, _, c = os.execute(cmd)
    if type(a) == "number" then return a == 0 end
    return a == true and (c == nil or c == 0)
end

local ROOT = path.getabsolute(".")
local SCRIPT = _SCRIPT or path.join(ROOT, "premake5.lua") -- _SCRIPT is nil inside actions in 4.3
local function have(p) return os.isfile(p) end
-- the contents of a file, nil if it cannot be read
local function slurp(p)
    local f = io.open(p, "r")
    if not f then return nil end
    local s = f:read("*a")
    f:close()
    return s
end
local PEERS = {
    qhull  = have("/usr/include/libqhull_r/libqhull_r.h"),
    ccd    = have("/usr/include/ccd/ccd.h"),
    bullet = have("/usr/include/bullet/btBulletCollisionCommon.h"),
    cgal   = have("/usr/include/CGAL/box_intersection_d.h"),
}

---------------------------------------------------------------------------------------------
-- Projects
---------------------------------------------------------------------------------------------
local CONFIGS = { "double", "float", "sanitize", "release", "debug" }

workspace "contact"
    configurations(CONFIGS)
    location "build"
    language "C"
    includedirs { ".", "tests/support", "bench" }
    buildoptions { "-Wall", "-Wextra", "-Werror", "-fopenmp" }
    linkoptions { "-fopenmp" }
    symbols "On"
    filter "configurations:double"
        optimize "Speed"
    filter "configurations:float"
        optimize "Speed"
        defines { "CT_REAL=float" }
    -- ASan+UBSan with CT_ASSERT on (CONTACT_DEBUG): one run checks memory and the invariants
    filter "configurations:sanitize"
        buildoptions { "-O1", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                       "-fno-omit-frame-pointer" }
        defines { "CONTACT_DEBUG" }
        linkoptions { "-fsanitize=address,undefined" }
    filter "configurations:release"
        optimize "Speed"
    -- CT_ASSERT on: the structural invariants the algorithms rely on are checked (never user data)
    filter "configurations:debug"
        optimize "Speed"
        defines { "CONTACT_DEBUG" }
    filter {}

local function dirs(name)
    location "build"
    for _, cfg in ipairs(CONFIGS) do
        filter("configurations:" .. cfg)
            targetdir("build/" .. cfg)
            objdir("build/obj/" .. cfg .. "/" .. name)
    end
    filter {}
end

local function peerlinks(list)
    for _, p in ipairs(list) do
        if PEERS[p] then
            defines { "CT_HAVE_" .. p:upper() }
            if p == "qhull" then links { "qhull_r" } end
            if p == "ccd" then links { "ccd" } end
            if p == "bullet" then
                includedirs { "/usr/include/bullet" }
                links { "BulletCollision", "LinearMath" }
            end
            if p == "cgal" then links { "gmp", "mpfr" } end
        end
    end
end

-- The Criterion suites: the C test files, compiled once per configuration into a static
-- library, linked whole (Criterion finds its tests by their registration sections) with the
-- implementation compiled as C (tests) or as C++ (tests_cpp), so the header is exercised by
-- both compilers.
project "testsuite"
    kind "StaticLib"
    language "C"
    dirs("testsuite")
    files { "tests/test_*.c", "tests/support/testutil.c", "bench/workload.c", "bench/harness.c", "bench/meshread.c", "bench/oracle.c" }
    peerlinks { "qhull", "ccd" }

local function testproject(name, lang, impl)
    project(name)
        kind "ConsoleApp"
        language(lang)
        dirs(name)
        files { impl }
        for _, cfg in ipairs(CONFIGS) do
            filter("configurations:" .. cfg)
                linkoptions { "-Wl,--whole-archive", cfg .. "/libtestsuite.a", "-Wl,--no-whole-archive" }
        end
        filter {}
        links { "testsuite" }
        peerlinks { "qhull", "ccd" }
        links { "criterion", "m", "pthread" }
end
testproject("tests", "C", "tests/support/impl.c")
testproject("tests_cpp", "C++", "tests/support/impl.cpp")

-- One benchmark executable per bench/bench_*.cpp; each links the C implementation.
local BENCHES = {}
for _, f in ipairs(os.matchfiles("bench/bench_*.cpp")) do
    local name = path.getbasename(f)
    table.insert(BENCHES, name)
    project(name)
        kind "ConsoleApp"
        language "C++"
        dirs(name)
        files { f, "bench/harness.c", "bench/workload.c", "bench/oracle.c", "bench/impl.c" }
        peerlinks { "qhull", "ccd", "bullet", "cgal" }
        links { "m", "pthread" }
end

-- Pictures of typical contacts, rendered by gnuplot from the OBJ/VTK export (examples/render.c).
project "render"
    kind "ConsoleApp"
    language "C"
    dirs("render")
    files { "examples/render.c", "bench/meshread.c", "bench/impl.c" }
    links { "m", "pthread" }

---------------------------------------------------------------------------------------------
-- Actions
---------------------------------------------------------------------------------------------
local function generate()
    return run(PREMAKE .. ' --file="' .. SCRIPT .. '" ' .. GMAKE)
end

local function jobs()
    return os.getenv("CT_JOBS") or "2"
end

-- The single-file header: contact.h with each #include "detail/x.h" replaced by the file.
local function amalgamate()
    local src = slurp(ROOT .. "/contact.h")
    if not src then print("cannot read contact.h") return false end
    -- the FILES paragraph of contact.h tells the reader the implementation is in detail/:
    -- in the single file it is not
    local FILES = '     "One header" means contact.h together with the detail/ directory next to it, which holds\n' ..
                  '     the implementation (one algorithm per file): copy both. For a single self-contained\n' ..
                  '     file run `premake4 --file=premake5.lua amalgamate` (writes build/contact.h).\n'
    local i, j = src:find(FILES, 1, true)
    if not i then print("amalgamate: the FILES paragraph of contact.h changed; update premake5.lua") return false end
    src = src:sub(1, i - 1) ..
          '     This is the single-file build of contact.h (made by its amalgamate action): the\n' ..
          '     implementation follows in this file, after the API. Nothing else is needed.\n' ..
          src:sub(j + 1)
    local missing = false
    src = src:gsub('#include "detail/([%w_]+%.h)"', function(n)
        local body = slurp(ROOT .. "/detail/" .. n)
        if not body then missing = true return "" end
        return "/* ---- detail/" .. n .. " ---- */\n" .. body
    end)
    if missing then print("amalgamate: a detail file is missing") return false end
    os.mkdir(ROOT .. "/build")
    local f = io.open(ROOT .. "/build/contact.h", "w")
    f:write(src)
    f:close()
    print("wrote build/contact.h")
    return true
end

newaction {
    trigger = "amalgamate",
    description = "Write build/contact.h, one self-contained header",
    execute = function() if not amalgamate() then os.exit(1) end end,
}

-- MPI tools (the optional MPI part is built with them outside the premake projects)
local MPIRUN = "mpirun --oversubscribe --allow-run-as-root"
local function have_mpi()
    return run("command -v mpicc >/dev/null && command -v mpicxx >/dev/null && command -v mpirun >/dev/null")
end

-- Compile-only checks of the header: strict C99 and C++ with gcc and clang, static mode,
-- no writable global/static data, and the amalgamated header.
local function compile_checks(failed)
    -- -Wdouble-promotion -Wconversion: a float build computes nothing in double by accident
    local W = "-Wall -Wextra -Werror -pedantic -Wdouble-promotion -Wconversion -fopenmp -I. -c -o /dev/null"
    local checks = {}
    for _, cc in ipairs({ "gcc", "clang" }) do
        if run("command -v " .. cc .. " >/dev/null") then
            local cxx = cc == "gcc" and "g++" or "clang++"
            for _, real in ipairs({ "", " -DCT_REAL=float" }) do
                table.insert(checks, cc .. " -std=c99 " .. W .. real .. " tests/compile/api_c.c")
                table.insert(checks, cxx .. " -std=c++11 " .. W .. real .. " tests/compile/api_cpp.cpp")
            end
            table.insert(checks, cc .. " -std=c99 " .. W .. " tests/compile/static_mode.c")
            table.insert(checks, cc .. " -std=c99 " .. W .. " -DCT_USE_AMALGAMATED -Ibuild tests/compile/api_c.c")
        end
    end
    if have_mpi() then -- the optional MPI part, C and C++, double and float, and amalgamated
        for _, real in ipairs({ "", " -DCT_REAL=float" }) do
            table.insert(checks, "mpicc -std=c99 " .. W .. real .. " -DCT_TEST_MPI tests/compile/api_c.c")
            table.insert(checks, "mpicxx -std=c++11 " .. W .. real .. " -DCT_TEST_MPI tests/compile/api_cpp.cpp")
        end
        table.insert(checks, "mpicc -std=c99 " .. W .. " -DCT_TEST_MPI -DCT_USE_AMALGAMATED -Ibuild tests/compile/api_c.c")
    end
    -- CT_JOBS (default 2) checks at a time, each one's output kept and shown after it
    os.mkdir(ROOT .. "/build/checks")
    local i = 1
    while i <= #checks do
        local batch, script = {}, ""
        for k = i, math.min(i + tonumber(jobs()) - 1, #checks) do
            table.insert(batch, k)
            print("$ " .. checks[k])
            script = script .. "(" .. checks[k] .. ") > build/checks/" .. k .. ".log 2>&1; echo $? > build/checks/" .. k .. ".rc & "
        end
        io.stdout:flush()
        os.execute(script .. "wait")
        for _, k in ipairs(batch) do
            local out, rc = slurp(ROOT .. "/build/checks/" .. k .. ".log") or "", slurp(ROOT .. "/build/checks/" .. k .. ".rc")
            io.write(out)
            if not rc or tonumber(rc) ~= 0 then table.insert(failed, "compile: " .. checks[k]) end
        end
        i = i + #batch
    end
    if not run("sh tests/compile/no_statics.sh") then table.insert(failed, "no writable statics") end
    -- libFuzzer harnesses, deterministic (fixed seed, each harness's fuzz-ci-runs count, about
    -- 2.5 min in all), double precision; see tests/fuzz/run.sh for longer and float runs
    if not run("CT_FUZZ_REALS=double CT_FUZZ_RUNS=${CT_FUZZ_RUNS:-ci} sh tests/fuzz/run.sh") then
        table.insert(failed, "fuzz")
    end
end

---------------------------------------------------------------------------------------------
-- MPI (optional): built with mpicc/mpicxx outside the premake projects, so the default build
-- needs no MPI. Each step runs only when mpicc, mpicxx and mpirun exist.
---------------------------------------------------------------------------------------------

-- tests/mpi/test_mpi.c under mpirun -np 1..4: double and float (C), the implementation as
-- C++, and ASan+UBSan (leak checks off: OpenMPI keeps memory to the end; the test counts
-- the library's own blocks). The test action runs the double and ASan+UBSan builds (the float
-- and C++ MPI code is compiled by the compile checks); test_mpi runs all four.
local function mpi_tests(failed, all)
    if not have_mpi() then print("mpicc/mpicxx/mpirun not found: the MPI tests are skipped") return end
    local W = "-Wall -Wextra -Werror -fopenmp -I. -Itests/support -Ibench"
    local SRC = "tests/mpi/test_mpi.c tests/support/testutil.c bench/harness.c bench/workload.c"
    local SAN = "-O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
    local builds = { -- name, C compiler, compiler of the implementation unit, linker, ranks
        { "double", "mpicc -std=c99 -O2", "mpicc -std=c99 -O2 -c tests/mpi/impl.c", "mpicc -O2", { 1, 2, 3, 4 } },
        { "float", "mpicc -std=c99 -O2 -DCT_REAL=float", "mpicc -std=c99 -O2 -DCT_REAL=float -c tests/mpi/impl.c",
          "mpicc -O2", { 1, 3 } },
        { "cpp", "mpicc -std=c99 -O2", "mpicxx -std=c++11 -O2 -c tests/mpi/impl.cpp", "mpicxx -O2", { 2, 4 } },
        { "sanitize", "mpicc -std=c99 " .. SAN, "mpicc -std=c99 " .. SAN .. " -c tests/mpi/impl.c",
          "mpicc " .. SAN, { 3 } },
    }
    if not all then builds = { builds[1], builds[4] } end
    for _, b in ipairs(builds) do
        local name, cc, implcc, link, nps = b[1], b[2], b[3], b[4], b[5]
        local dir = "build/mpi/" .. name
        print("\n==== mpi tests [" .. name .. "] ====")
        os.mkdir(ROOT .. "/" .. dir)
        local ok = run(implcc .. " " .. W .. " -o " .. dir .. "/impl.o")
        local objs = dir .. "/impl.o"
        for f in SRC:gmatch("%S+") do
            local o = dir .. "/" .. path.getbasename(f) .. ".o"
            ok = ok and run(cc .. " " .. W .. " -c " .. f .. " -o " .. o)
            objs = objs .. " " .. o
        end
        ok = ok and run(link .. " -fopenmp -o " .. dir .. "/test_mpi " .. objs .. " -lm")
        if not ok then
            table.insert(failed, "build mpi tests [" .. name .. "]")
        else
            for _, np in ipairs(nps) do
                local env = "OMP_NUM_THREADS=" .. (np == 1 and "2" or "1") .. " "
                if name == "sanitize" then env = env .. "ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 " end
                if not run(env .. MPIRUN .. " -np " .. np .. " " .. dir .. "/test_mpi") then
                    table.insert(failed, "mpi tests [" .. name .. "] -np " .. np)
                end
            end
        end
    end
end

newaction {
    trigger = "test_mpi",
    description = "Build and run only the MPI tests (mpirun -np 1..4; skipped without MPI)",
    execute = function()
        local failed = {}
        mpi_tests(failed, true)
        for _, f in ipairs(failed) do print("FAILED: " .. f) end
        if #failed > 0 then os.exit(1) end
    end,
}

newaction {
    trigger = "test",
    description = "Build and run every test configuration (exits non-zero on failure)",
    execute = function()
        local failed = {}
        if not amalgamate() then table.insert(failed, "amalgamate") end
        if not generate() then print("premake generation failed") os.exit(1) end
        compile_checks(failed)
        -- every entry point from 8 pthreads at once under ThreadSanitizer (tests/tsan/run.sh)
        -- (each run's stdout is kept in a .log for tests/check_readme.sh)
        local function logged(cmd, log)
            return run("sh -c '" .. cmd .. " > " .. log .. " 2>&1; s=$?; cat " .. log .. "; exit $s'")
        end
        os.mkdir(ROOT .. "/build/tsan")
        if not logged("OMP_WAIT_POLICY=passive sh tests/tsan/run.sh", "build/tsan/tsan.log") then table.insert(failed, "tsan") end
        -- Solfec-1.0's cvi regression inputs (not redistributed: see tests/test_polar.c), used
        -- when CT_SOLFEC_CVI names them or they sit in shared/data/solfec-cvi next to the checkout
        local solfec = ""
        local cvi = os.getenv("CT_SOLFEC_CVI") or path.getabsolute(ROOT .. "/../shared/data/solfec-cvi")
        if os.isfile(cvi .. "/README.md") then solfec = "CT_SOLFEC_CVI=" .. cvi .. " " end
        local runs = {
            { "double", "tests" }, { "float", "tests" },
            { "double", "tests_cpp" }, { "float", "tests_cpp" },
            { "sanitize", "tests" },   -- sanitize has CONTACT_DEBUG on: no separate debug run
        }
        for _, r in ipairs(runs) do
            local cfg, prj = r[1], r[2]
            print("\n==== " .. prj .. " [" .. cfg .. "] ====")
            if not run("make -C build -j" .. jobs() .. " config=" .. cfg .. " " .. prj) then
                table.insert(failed, "build " .. prj .. " [" .. cfg .. "]")
            else
                -- passive OpenMP waits: two Criterion workers with two OpenMP threads each on
                -- two cores would otherwise spin in each other's barriers
                local env = "OMP_WAIT_POLICY=passive CT_TEST_CONFIG=" .. cfg .. " " .. solfec
                if cfg == "sanitize" then
                    env = env .. "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 "
                end
                if not logged(env .. "build/" .. cfg .. "/" .. prj .. " --jobs " .. jobs(),
                              "build/" .. cfg .. "/" .. prj .. ".log") then
                    table.insert(failed, "run " .. prj .. " [" .. cfg .. "]")
                end
            end
        end
        -- the figures README.md quotes from the tests are the ones they count
        if not run("sh tests/check_readme.sh build/double/tests.log build/float/tests.log build/tsan/tsan.log") then
            table.insert(failed, "README figures")
        end
        mpi_tests(failed)
        print("\n==== summary ====")
        if #failed > 0 then
            local fz = slurp(ROOT .. "/build/fuzz/failures.txt")
            if fz and fz ~= "" then io.write(fz) end
            for _, f in ipairs(failed) do print("FAILED: " .. f) end
            os.exit(1)
        end
        print("all test configurations passed")
    end,
}


---------------------------------------------------------------------------------------------
-- The bench report: a summary at the top of results.md and build/bench/report.md with a plot
-- per table, made from the markdown tables the harness wrote (bench/harness.c).
---------------------------------------------------------------------------------------------
local SUMMARY_END = "<!-- end of summary -->"


local function shell(cmd)
    local f = io.popen(cmd .. " 2>/dev/null")
    if not f then return "" end
    local s = f:read("*a") or ""
    f:close()
    return (s:gsub("%s+$", ""))
end

local function trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end

-- Tables of results.md: { title, rows = { workload, ours, peer, peer_t, ratio, check } }.
local function parse_results(text)
    local tables, cur = {}, nil
    for line in (text .. "\n"):gmatch("([^\n]*)\n") do
        local title = line:match("^###%s+(.+)$")
        if title then
            cur = { title = trim(title), rows = {} }
            table.insert(tables, cur)
        elseif cur and line:match("^| ") and not line:match("^| workload |") and not line:match("^|%-") then
            local cells = {}
            for c in line:sub(2):gmatch("([^|]*)|") do table.insert(cells, trim(c)) end
            if #cells >= 5 then
                local check = table.concat(cells, " | ", 6)
                table.insert(cur.rows, {
                    workload = cells[1], ours = tonumber(cells[2]), peer = cells[3],
                    peer_t = tonumber(cells[4]), ratio = tonumber((cells[5]:gsub("[%*x]", ""))), check = check,
                })
            end
        end
    end
    return tables
end

-- The size in a workload name ("20 v", "1000 vertices", "20-vertex", "n = 10000", "8 points")
-- and the name with it replaced by N, so rows of one series share a key.
local SIZE_PATTERNS = { "n = #", "# v,", "# v$", "# vertices", "#%-vertex", "# points", "#%-point" }
local function size_of(w)
    for _, p in ipairs(SIZE_PATTERNS) do
        local n = w:match((p:gsub("#", "(%%d[%%de%%.]*)")))
        if n and tonumber(n) then
            local text = p:gsub("#", "N"):gsub("%%%-", "-"):gsub("%$$", "")
            local key = w:gsub((p:gsub("#", "%%d[%%de%%.]*")), function() return text end, 1)
            return tonumber(n), key
        end
    end
    return nil
end

local function label(s) return (s:gsub('"', "'")) end

local function gnuplot(script, path)
    local f = io.open(path, "w")
    f:write(script)
    f:close()
    return run("gnuplot " .. path)
end

-- One horizontal log-scale bar per row with a peer: ratio peer/ours, bars from 1 (red: the
-- peer wins).
local function ratio_plot(dir, i, t)
    local rows = {}
    for _, r in ipairs(t.rows) do if r.ratio and r.ratio > 0 then table.insert(rows, r) end end
    if #rows == 0 then return nil end
    local dat = string.format("%s/t%02d_ratio.dat", dir, i)
    local f = io.open(dat, "w")
    local lo, hi = 1, 1
    for k, r in ipairs(rows) do
        f:write(string.format('%d %.6g "%s"\n', k, r.ratio, label(r.workload .. " | " .. r.peer)))
        lo, hi = math.min(lo, r.ratio), math.max(hi, r.ratio)
    end
    f:close()
    local png = string.format("t%02d_ratio.png", i)
    local script = string.format([[
set terminal png size 1200,%d noenhanced
set output '%s/%s'
set title "%s\npeer time / our time (> 1: contact.h faster; red: the peer wins)"
set logscale x
set xrange [%g:%g]
set yrange [%d.6:0.4]
set ytics scale 0
set grid x
set key off
set xlabel 'ratio peer / ours (log scale)'
set arrow from 1, graph 0 to 1, graph 1 nohead lw 2
plot '%s' using (sqrt($2)):1:(($2<1)?$2:1):(($2<1)?1:$2):($1-0.35):($1+0.35):(($2<1)?0xcc3333:0x3377bb):ytic(3) with boxxyerror fs solid 0.8 lc rgb variable, \
     '' using (($2<1)?1:$2):1:(sprintf("%%.2fx", $2)) with labels left offset 0.5,0
]], 90 + 24 * #rows, dir, png, label(t.title), lo / 1.5, hi * 3, #rows, dat)
    if gnuplot(script, dat:gsub("%.dat$", ".gp")) then return png end
    return nil
end

-- Time against size where a table's rows form series of 3 or more sizes: ours and each peer.
local function size_plot(dir, i, t)
    local series, order = {}, {}
    local function add(key, size, time)
        if not series[key] then series[key] = {} table.insert(order, key) end
        local s = series[key]
        for _, p in ipairs(s) do if p[1] == size then return end end
        table.insert(s, { size, time })
    end
    for _, r in ipairs(t.rows) do
        local n, key = size_of(r.workload)
        if n and r.ours then
            add("contact.h: " .. key, n, r.ours)
            if r.peer_t and r.peer ~= "-" then add(r.peer .. ": " .. key, n, r.peer_t) end
        end
    end
    local keep = {}
    for _, k in ipairs(order) do if #series[k] >= 3 and #keep < 12 then table.insert(keep, k) end end
    if #keep == 0 then return nil end
    local dat = string.format("%s/t%02d_size.dat", dir, i)
    local f = io.open(dat, "w")
    local plots = {}
    for j, k in ipairs(keep) do
        table.sort(series[k], function(a, b) return a[1] < b[1] end)
        for _, p in ipairs(series[k]) do f:write(string.format("%g %g\n", p[1], p[2])) end
        f:write("\n\n")
        table.insert(plots, string.format("'%s' index %d using 1:2 with linespoints lw %d title \"%s\"", dat, j - 1,
                                          k:match("^contact%.h") and 3 or 1, label(k)))
    end
    f:close()
    local png = string.format("t%02d_size.png", i)
    local script = string.format([[
set terminal png size 1000,700 noenhanced
set output '%s/%s'
set title "%s\ntime per call against size (thick: contact.h)"
set logscale xy
set grid
set key below
set xlabel 'size (points / vertices / boxes)'
set ylabel 'us per call'
plot %s
]], dir, png, label(t.title), table.concat(plots, ", \\\n     "))
    if gnuplot(script, dat:gsub("%.dat$", ".gp")) then return png end
    return nil
end

local function geomean(v)
    local s = 0
    for _, x in ipairs(v) do s = s + math.log(x) end
    return math.exp(s / #v)
end

-- The summary that opens results.md: machine, compiler, flags, commit, date, peers, headline.
local function summary(tables)
    local out = {}
    local function w(s) table.insert(out, s) end
    local cpu = shell("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2")
    local flags = shell("sed -n '/config),release/,/CXXFLAGS/p' build/bench_hull.make | grep -m1 'CFLAGS' | sed 's/.*(ARCH) //'")
    local commit = shell("git rev-parse --short HEAD") .. (shell("git status --porcelain --untracked-files=no") ~= "" and " (with uncommitted changes)" or "")
    w("# contact.h benchmark results")
    w("")
    w("| | |")
    w("|---|---|")
    w("| machine | " .. trim(cpu) .. ", " .. shell("nproc") .. " cores available (" .. shell("nproc --all") .. " in all), " .. shell("uname -sr") .. " |")
    w("| compiler | " .. shell("gcc --version | head -1") .. " / " .. shell("g++ --version | head -1") .. " |")
    w("| flags | `" .. flags .. "` (bench/impl.c and the harness as C, benchmarks as C++), double unless a row says float |")
    w("| commit | " .. commit .. " |")
    w("| date | " .. os.date("!%Y-%m-%d %H:%M UTC") .. " (load average when the report was written: " ..
      shell("cut -d' ' -f1-3 /proc/loadavg") .. "; ratios are measured in one process, alternating, so they hold up better than times) |")
    w("| peers | " .. shell("dpkg-query -W -f='${Package} ${Version}, ' libqhull-dev libccd-dev libbullet-dev libcgal-dev | sed 's/, $//'") .. " |")
    w("")
    w("Headline: one row per routine (a table, split by the entry point its rows name). Our time is the range over its rows; the")
    w("strongest peer is the one with the lowest geometric mean of peer/ours over its rows (> 1:")
    w("contact.h faster). Plots: [report.md](report.md).")
    w("")
    w("| routine | ours (us/call) | strongest peer | peer/ours: geometric mean (range) | rows | verdict |")
    w("|---|---:|---|---:|---:|---|")
    local disagree = {}
    -- a routine: a table, split by the entry point that starts a workload name (ct_gjk, ...)
    local routines, rorder = {}, {}
    for _, t in ipairs(tables) do
        for _, r in ipairs(t.rows) do
            local fn = r.workload:match("^(ct_[%w_]+)")
            local name = fn and (t.title .. ": " .. fn) or t.title
            if not routines[name] then
                routines[name] = { title = name, rows = {} }
                table.insert(rorder, routines[name])
            end
            table.insert(routines[name].rows, r)
        end
    end
    for _, t in ipairs(rorder) do
        local lo, hi = math.huge, 0
        local peers, porder = {}, {}
        for _, r in ipairs(t.rows) do
            if r.ours then lo, hi = math.min(lo, r.ours), math.max(hi, r.ours) end
            if r.ratio and r.ratio > 0 then
                if not peers[r.peer] then peers[r.peer] = {} table.insert(porder, r.peer) end
                table.insert(peers[r.peer], r)
            end
            if r.check:match("DISAGREE") then table.insert(disagree, t.title .. ": " .. r.workload .. " (" .. r.peer .. "): " .. r.check) end
        end
        if hi > 0 then
            local best, bestg
            for _, p in ipairs(porder) do
                local v = {}
                for _, r in ipairs(peers[p]) do table.insert(v, r.ratio) end
                local g = geomean(v)
                if not bestg or g < bestg then best, bestg = p, g end
            end
            local ours = lo == hi and string.format("%.4g", lo) or string.format("%.4g - %.4g", lo, hi)
            if best then
                local rlo, rhi, wins = math.huge, 0, {}
                for _, r in ipairs(peers[best]) do
                    rlo, rhi = math.min(rlo, r.ratio), math.max(rhi, r.ratio)
                end
                for _, p in ipairs(porder) do
                    for _, r in ipairs(peers[p]) do if r.ratio < 1 then table.insert(wins, r.workload .. " vs " .. p) end end
                end
                local nrows = 0
                for _, p in ipairs(porder) do nrows = nrows + #peers[p] end
                local shown = {}
                for k = 1, math.min(3, #wins) do shown[k] = wins[k] end
                local verdict = #wins == 0 and "contact.h faster on every row"
                    or string.format("**a peer wins %d of %d rows**: %s%s", #wins, nrows, table.concat(shown, "; "),
                                     #wins > 3 and "; ..." or "")
                w(string.format("| %s | %s | %s | %.2fx (%.2f - %.2f) | %d | %s |", t.title, ours, best, bestg, rlo, rhi,
                                #peers[best], verdict))
            else
                w(string.format("| %s | %s | - | - | %d | ours only |", t.title, ours, #t.rows))
            end
        end
    end
    w("")
    if #disagree > 0 then
        w("Rows where a peer and contact.h DISAGREE (the benchmark's check says which, if any, an oracle supports):")
        w("")
        for _, d in ipairs(disagree) do w("- " .. d) end
    else
        w("Every timed row passed its agreement check.")
    end
    w("")
    w(SUMMARY_END)
    w("")
    return table.concat(out, "\n")
end

local function write_report()
    local dir = ROOT .. "/build/bench"
    local text = slurp(dir .. "/results.md")
    if not text then print("report: no build/bench/results.md (run the bench action)") return false end
    local cut = text:find(SUMMARY_END, 1, true)
    if cut then text = text:sub(cut + #SUMMARY_END):gsub("^\n+", "") end
    local tables = parse_results(text)
    local f = io.open(dir .. "/results.md", "w")
    f:write(summary(tables) .. "\n" .. text)
    f:close()
    os.mkdir(dir .. "/report")
    local out = { "# contact.h benchmark report", "",
                  "Made from [results.md](results.md) by `premake4 --file=premake5.lua report` (gnuplot).",
                  "Ratios are peer time / our time in the same run: > 1 means contact.h is faster.", "" }
    local have_gnuplot = run("command -v gnuplot >/dev/null")
    for i, t in ipairs(tables) do
        table.insert(out, "## " .. t.title)
        table.insert(out, "")
        if have_gnuplot then
            local r = ratio_plot(dir .. "/report", i, t)
            local s = size_plot(dir .. "/report", i, t)
            if r then table.insert(out, "![ratios](report/" .. r .. ")") end
            if s then table.insert(out, "![time against size](report/" .. s .. ")") end
            if not r and not s then table.insert(out, "(no peer rows and no size series: see the table in results.md)") end
        else
            table.insert(out, "(gnuplot not installed: no plot)")
        end
        table.insert(out, "")
    end
    local extra = {}
    for _, png in ipairs(os.matchfiles(dir .. "/*.png")) do table.insert(extra, path.getname(png)) end
    if #extra > 0 then
        table.insert(out, "## Plots written by the benchmarks (time against size, thread scaling)")
        table.insert(out, "")
        for _, png in ipairs(extra) do table.insert(out, "![" .. png .. "](" .. png .. ")") end
        table.insert(out, "")
    end
    local pics = os.matchfiles(dir .. "/pictures/*.png")
    if #pics > 0 then
        table.insert(out, "## Typical contacts (rendered from the OBJ/VTK export by build/release/render)")
        table.insert(out, "")
        for _, png in ipairs(pics) do table.insert(out, "![" .. path.getname(png) .. "](pictures/" .. path.getname(png) .. ")") end
        table.insert(out, "")
    end
    f = io.open(dir .. "/report.md", "w")
    f:write(table.concat(out, "\n"))
    f:close()
    print("wrote build/bench/report.md and the summary of build/bench/results.md")
    return true
end

-- The README's pictures: rendered into build/bench/pictures, the PNGs copied to examples/.
newaction {
    trigger = "pictures",
    description = "Render the pictures of typical contacts and copy the PNGs to examples/",
    execute = function()
        if not (generate() and run("make -C build -j" .. jobs() .. " config=release render") and
                run("build/release/render build/bench/pictures") and
                run("cp build/bench/pictures/stack.png build/bench/pictures/pair20.png examples/")) then
            os.exit(1)
        end
    end,
}

newaction {
    trigger = "report",
    description = "Write build/bench/report.md and the summary of results.md from the last bench run",
    execute = function() if not write_report() then os.exit(1) end end,
}

newaction {
    trigger = "bench",
    description = "Build optimised and run the benchmarks (results in build/bench/)",
    execute = function()
        if not generate() then os.exit(1) end
        os.mkdir(ROOT .. "/build/bench")
        os.remove(ROOT .. "/build/bench/results.md")
        os.remove(ROOT .. "/build/bench/timing.new")
        -- progress lines (stderr) count elapsed time from here and estimate what remains from
        -- the last complete run's row times (build/bench/timing.tsv)
        local env = "CT_BENCH_T0=" .. os.time() .. " "
        local ok = true
        for _, name in ipairs(BENCHES) do
            if not run("make -C build -j" .. jobs() .. " config=release " .. name) then ok = false
            elseif not run(env .. "build/release/" .. name) then ok = false end
        end
        if have_mpi() then
            -- bench/bench_mpi.c: 1e6 boxes on 1, 2 and 4 ranks (one thread per rank)
            os.mkdir(ROOT .. "/build/release")
            if not (run("mpicc -std=c99 -O2 -Wall -Wextra -Werror -fopenmp -I. -Ibench bench/bench_mpi.c " ..
                        "bench/harness.c bench/workload.c bench/oracle.c -lm -o build/release/bench_mpi") and
                    run(MPIRUN .. " -np 1 build/release/bench_mpi --header")) then ok = false
            else
                for _, np in ipairs({ 1, 2, 4 }) do
                    if not run(MPIRUN .. " -np " .. np .. " build/release/bench_mpi") then ok = false end
                end
            end
        else
            print("mpicc/mpicxx/mpirun not found: the MPI benchmark is skipped")
        end
        for p, present in pairs(PEERS) do
            if not present then print("peer " .. p .. " not installed: its rows are skipped") end
        end
        if ok then os.rename(ROOT .. "/build/bench/timing.new", ROOT .. "/build/bench/timing.tsv") end
        -- pictures of typical contacts from the OBJ/VTK export, then the report
        if not (run("make -C build -j" .. jobs() .. " config=release render") and
                run("build/release/render build/bench/pictures")) then ok = false end
        if not write_report() then ok = false end
        if not ok then os.exit(1) end
    end,
}
