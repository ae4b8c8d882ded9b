-- contact.h build: premake5 API, runnable by Debian's premake4 4.3 through the shim below.
--
--   premake4 --file=premake5.lua test        build and run every test configuration
--   premake4 --file=premake5.lua bench       build optimised and run the benchmarks
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
local PEERS = {
    qhull  = have("/usr/include/libqhull_r/libqhull_r.h"),
    ccd    = have("/usr/include/ccd/ccd.h"),
    bullet = have("/usr/include/bullet/btBulletCollisionCommon.h"),
    cgal   = have("/usr/include/CGAL/box_intersection_d.h"),
}

---------------------------------------------------------------------------------------------
-- Projects
---------------------------------------------------------------------------------------------
local CONFIGS = { "double", "float", "sanitize", "release" }

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
    filter "configurations:sanitize"
        buildoptions { "-O1", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                       "-fno-omit-frame-pointer" }
        linkoptions { "-fsanitize=address,undefined" }
    filter "configurations:release"
        optimize "Speed"
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

-- The Criterion suites: C test files linked with the implementation compiled as C (tests)
-- or as C++ (tests_cpp), so the header is exercised by both compilers.
local function testproject(name, lang, impl)
    project(name)
        kind "ConsoleApp"
        language(lang)
        dirs(name)
        files { "tests/test_*.c", "tests/support/testutil.c", "bench/workload.c", "bench/harness.c", impl }
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
        files { f, "bench/harness.c", "bench/workload.c", "bench/impl.c" }
        peerlinks { "qhull", "ccd", "bullet", "cgal" }
        links { "m", "pthread" }
end

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
    local function slurp(p)
        local f = io.open(p, "r")
        if not f then return nil end
        local s = f:read("*a")
        f:close()
        return s
    end
    local src = slurp(ROOT .. "/contact.h")
    if not src then print("cannot read contact.h") return false end
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
    local W = "-Wall -Wextra -Werror -pedantic -fopenmp -I. -c -o /dev/null"
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
    for _, c in ipairs(checks) do
        if not run(c) then table.insert(failed, "compile: " .. c) end
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
-- the library's own blocks).
local function mpi_tests(failed)
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
        mpi_tests(failed)
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
        if not run("sh tests/tsan/run.sh") then table.insert(failed, "tsan") end
        local runs = {
            { "double", "tests" }, { "float", "tests" },
            { "double", "tests_cpp" }, { "float", "tests_cpp" },
            { "sanitize", "tests" },
        }
        for _, r in ipairs(runs) do
            local cfg, prj = r[1], r[2]
            print("\n==== " .. prj .. " [" .. cfg .. "] ====")
            if not run("make -C build -j" .. jobs() .. " config=" .. cfg .. " " .. prj) then
                table.insert(failed, "build " .. prj .. " [" .. cfg .. "]")
            else
                local env = "CT_TEST_CONFIG=" .. cfg .. " "
                if cfg == "sanitize" then
                    env = env .. "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 "
                end
                if not run(env .. "build/" .. cfg .. "/" .. prj .. " --jobs " .. jobs()) then
                    table.insert(failed, "run " .. prj .. " [" .. cfg .. "]")
                end
            end
        end
        mpi_tests(failed)
        print("\n==== summary ====")
        if #failed > 0 then
            for _, f in ipairs(failed) do print("FAILED: " .. f) end
            os.exit(1)
        end
        print("all test configurations passed")
    end,
}

newaction {
    trigger = "bench",
    description = "Build optimised and run the benchmarks (results in build/bench/)",
    execute = function()
        if not generate() then os.exit(1) end
        os.mkdir(ROOT .. "/build/bench")
        os.remove(ROOT .. "/build/bench/results.md")
        local ok = true
        for _, name in ipairs(BENCHES) do
            if not run("make -C build -j" .. jobs() .. " config=release " .. name) then ok = false
            elseif not run("build/release/" .. name) then ok = false end
        end
        if have_mpi() then
            -- bench/bench_mpi.c: 1e6 boxes on 1, 2 and 4 ranks (one thread per rank)
            os.mkdir(ROOT .. "/build/release")
            if not (run("mpicc -std=c99 -O2 -Wall -Wextra -Werror -fopenmp -I. -Ibench bench/bench_mpi.c " ..
                        "bench/harness.c bench/workload.c -lm -o build/release/bench_mpi") and
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
        if not ok then os.exit(1) end
    end,
}
