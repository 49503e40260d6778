-- wrk script for bench/cgo.sh: POSTs the /verify body in the file $BODY
-- and counts the answers that are not {"isValid":true,...}.
local f = assert(io.open(assert(os.getenv("BODY"), "BODY is not set"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
wrk.headers["Content-Type"] = "application/json"
f:close()
invalid = 0

local threads = {}

function setup(thread)
	table.insert(threads, thread)
end

function response(status, headers, body)
	if not body:find('"isValid":true', 1, true) then
		invalid = invalid + 1
	end
end

function done(summary, latency, requests)
	local n = 0
	for _, t in ipairs(threads) do
		n = n + t:get("invalid")
	end
	io.write(string.format("invalid %d\n", n))
end
