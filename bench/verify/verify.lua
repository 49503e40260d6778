-- wrk script for bench/verify.sh: POSTs the bodies of the file $BODIES
-- (one JSON body a line), each thread cycling through them from its own
-- starting point, and counts the answers: valid ones ({"isValid":true,...})
-- and the rest.
local path = assert(os.getenv("BODIES"), "BODIES is not set")
local bodies = {}
for line in io.lines(path) do
	if #line > 0 then
		bodies[#bodies + 1] = line
	end
end
assert(#bodies > 0, "no bodies in " .. path)
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

local threads, nthreads = {}, 0
function setup(thread)
	thread:set("first", nthreads)
	nthreads = nthreads + 1
	table.insert(threads, thread)
end

local i
valid, other = 0, 0

function request()
	if i == nil then
		i = (first * 7919) % #bodies
	end
	i = i % #bodies + 1
	return wrk.format(nil, nil, nil, bodies[i])
end

function response(status, headers, body)
	if status == 200 and body:find('"isValid":true', 1, true) then
		valid = valid + 1
	else
		other = other + 1
	end
end

function done(summary, latency, requests)
	local v, o = 0, 0
	for _, t in ipairs(threads) do
		v = v + t:get("valid")
		o = o + t:get("other")
	end
	io.write(string.format("bodies %d\nvalid %d\nother %d\n", #bodies, v, o))
end
