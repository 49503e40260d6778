-- wrk script for bench/verify.sh: POSTs the bodies of the file $BODIES
-- (one JSON body a line), each of wrk's two threads taking those of its
-- own half of the file in turn from $OFFSET on (default 0), and counts the
-- answers: valid ones ({"isValid":true,...}) and the rest, and how many
-- bodies a thread sent again after using its whole half ("wrapped").
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

local offset = tonumber(os.getenv("OFFSET") or "0")
local half = math.floor(#bodies / 2)
assert(half > offset, "fewer than 2 * OFFSET bodies in " .. path)
local i
valid, other, wrapped = 0, 0, 0

function request()
	if i == nil then
		i = offset
	end
	if i >= half then
		wrapped = wrapped + 1
	end
	local body = bodies[first * half + i % half + 1]
	i = i + 1
	return wrk.format(nil, nil, nil, body)
end

function response(status, headers, body)
	if status == 200 and body:find('"isValid":true', 1, true) then
		valid = valid + 1
	else
		other = other + 1
	end
end

function done(summary, latency, requests)
	local v, o, w = 0, 0, 0
	for _, t in ipairs(threads) do
		v = v + t:get("valid")
		o = o + t:get("other")
		w = w + t:get("wrapped")
	end
	io.write(string.format("bodies %d\nvalid %d\nother %d\nwrapped %d\n", #bodies, v, o, w))
end
